// An app that installed the packed packages from their tarballs (see ../check-packages.ts): it must type-check
// against their published declarations (strict, skipLibCheck off) and run one prompt on the scripted model.
import * as aiSdk from '@tessera/ai-sdk';
import * as core from '@tessera/core';
import { createPlatform, createTool, definePlugin } from '@tessera/core';
import * as openai from '@tessera/openai';
import * as agents from '@tessera/plugin-agents';
import * as blueprints from '@tessera/plugin-blueprints';
import * as files from '@tessera/plugin-files';
import * as goals from '@tessera/plugin-goals';
import * as skills from '@tessera/plugin-skills';
import * as triggers from '@tessera/plugin-triggers';
import { type DisplayWidget, tableWidget, widgetsPlugin } from '@tessera/plugin-widgets';
import * as providerUtils from '@tessera/provider-utils';
import * as relayNats from '@tessera/relay-nats';
import * as storePostgres from '@tessera/store-postgres';
import * as testing from '@tessera/testing';
import { z } from 'zod';

const salesReport = createTool({
  id: 'sales.report',
  description: 'Shows the sales of a region as a table.',
  input: z.object({ region: z.string() }),
  // `displayWidget` is on a tool's input only through the widgets plugin's `declare module '@tessera/core'`.
  invoke: async ({ input, displayWidget }) => {
    await displayWidget(tableWidget, {
      columns: [{ key: 'region' }, { key: 'total' }],
      rows: [{ ...input, total: 12 }],
    });
    return 'shown';
  },
});

/** Never called: the declarations type a widget's data by its schema. */
export const wrongData = (display: DisplayWidget) =>
  // @ts-expect-error: a table has columns and rows, not points
  display(tableWidget, { points: [] });

const platform = createPlatform({
  plugins: [widgetsPlugin, definePlugin({ id: 'app', tools: [salesReport] })],
  model: testing.scriptedModel([
    testing.callTool('sales.report', { region: 'north' }),
    testing.reply('Shown.'),
  ]),
});
const conversation = await platform.conversations.create({ userId: 'ada' });
const prompt = await platform.send({ conversationId: conversation.id, userId: 'ada', input: 'Sales, north' });
await platform.close();

// `o.widget` type-checks only if the plugin's output variant joined core's `PromptOutputTypes`.
const outputs = prompt.output.map((o) => (o.type === 'widget' ? `widget:${o.widget}` : o.type)).join(', ');
const empty = Object.entries({
  aiSdk,
  core,
  openai,
  providerUtils,
  agents,
  relayNats,
  blueprints,
  files,
  goals,
  skills,
  triggers,
  storePostgres,
  testing,
})
  .filter(([, module]) => Object.keys(module).length === 0)
  .map(([name]) => name);
if (prompt.state !== 'completed' || outputs !== 'tool, widget:table, text' || empty.length > 0) {
  console.error(
    `The packed packages failed: prompt ${prompt.state} with [${outputs}]; empty modules: [${empty}]`,
  );
  process.exit(1);
}
console.log(`The packed packages ran a prompt: ${prompt.state} with [${outputs}]`);
