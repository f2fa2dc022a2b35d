// What the model is sent for a conversation of 50 prompts, each with a 100-row table widget and a 50 KB file,
// against a naive projection that puts the widget data and the file text into the tool result.
// Counted with a real tokenizer (o200k, gpt-tokenizer). Run: `node bench/tokens.ts`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPlatform,
  createTool,
  definePlugin,
  type ModelMessage,
  promptsToMessages,
} from '@tessera/core';
import { filesPlugin } from '@tessera/plugin-files';
import { tableWidget, widgetsPlugin } from '@tessera/plugin-widgets';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';

const PROMPTS = 50;
const rows = Array.from({ length: 100 }, (_, i) => ({
  sku: `SKU-${1000 + i}`,
  name: `Product ${i}`,
  units: (i * 37) % 500,
  revenue: (i * 7919) % 100_000,
}));
const csvLine = (i: number) =>
  `${i},SKU-${1000 + (i % 100)},Product ${i % 100},${(i * 37) % 500},${(i * 7919) % 100_000}\n`;
let csv = 'row,sku,name,units,revenue\n';
for (let i = 0; csv.length < 50_000; i++) csv += csvLine(i);

const report = createTool({
  id: 'sales.report',
  description: 'Sales by product: a table, and the full export as a CSV file.',
  input: z.object({ month: z.number() }),
  invoke: async ({ input, displayWidget, addFileOutput }) => {
    await displayWidget(tableWidget, { columns: Object.keys(rows[0]!).map((key) => ({ key })), rows });
    const file = await addFileOutput({
      name: `sales-${input.month}.csv`,
      content: csv,
      summary: `Sales export for month ${input.month}: ${rows.length} products.`,
    });
    return { products: rows.length, file: file.fileId };
  },
});

const directory = await mkdtemp(join(tmpdir(), 'tokens-'));
const script = Array.from({ length: PROMPTS }, (_, i) => [
  callTool('sales.report', { month: i + 1 }),
  reply(`Here is the report for month ${i + 1}.`),
]).flat();
const platform = createPlatform({
  plugins: [widgetsPlugin, filesPlugin({ directory }), definePlugin({ id: 'sales', tools: [report] })],
  model: new ScriptedModel(script),
});
const { id } = await platform.conversations.create({ userId: 'u' });
for (let i = 0; i < PROMPTS; i++)
  await platform.send({ conversationId: id, userId: 'u', input: `Sales report for month ${i + 1}` });
const prompts = await platform.conversations.prompts(id, 'u');

const tokens = (messages: ModelMessage[]) =>
  messages.reduce(
    (sum, m) =>
      sum +
      encode(
        m.type === 'message'
          ? m.content
          : m.type === 'function_call'
            ? m.name + m.arguments
            : m.type === 'function_call_output'
              ? m.output
              : '',
      ).length,
    0,
  );

const tessera = promptsToMessages(prompts, { outputs: platform.outputs });
// Naive: no output variants, so the widget data and the file's text ride in the tool's result.
const naive = prompts.flatMap((prompt): ModelMessage[] => {
  const messages: ModelMessage[] = [{ type: 'message', role: 'user', content: prompt.input ?? '' }];
  for (const output of prompt.output) {
    if (output.type === 'tool') {
      const extra = { table: rows, file: csv };
      messages.push(
        {
          type: 'function_call',
          callId: output.callId,
          name: output.toolId,
          arguments: JSON.stringify(output.input),
        },
        {
          type: 'function_call_output',
          callId: output.callId,
          output: JSON.stringify({ ...(output.result as { output: object }).output, ...extra }),
        },
      );
    } else if (output.type === 'text')
      messages.push({ type: 'message', role: 'assistant', content: output.text });
  }
  return messages;
});
const bounded = promptsToMessages(
  prompts.map((p) => ({
    ...p,
    output: p.output
      .filter((o) => o.type === 'tool' || o.type === 'text')
      .map((o) =>
        o.type === 'tool'
          ? { ...o, result: { type: 'success' as const, output: { table: rows, file: csv } } }
          : o,
      ),
  })),
  { outputs: platform.outputs },
);
console.log(
  `${PROMPTS} prompts, each with a ${rows.length}-row table widget and a ${(csv.length / 1000).toFixed(0)} KB CSV file (o200k tokens):`,
);
console.log(`| projection | tokens sent to the model |\n|---|---:|`);
console.log(`| Tessera (widget skipped, file summarised) | ${tokens(tessera).toLocaleString('en')} |`);
console.log(
  `| naive (widget data and file text in the tool result) | ${tokens(naive).toLocaleString('en')} |`,
);
console.log(
  `| naive, with Tessera's bound on each result (20,000 chars) | ${tokens(bounded).toLocaleString('en')} |`,
);
await rm(directory, { recursive: true, force: true });
