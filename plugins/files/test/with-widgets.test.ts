import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTool, MemoryStore, promptsToMessages } from '@tessera/core';
import { tableWidget, type WidgetOutput, widgetsPlugin } from '@tessera/plugin-widgets';
import { assertWellFormed, callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FileOutput } from '../src/index.ts';
import { errorMessageOf, filesPlatform, resultOf } from './helpers.ts';

// Both output plugins together, as an app composes them: each adds its variant through the public API.
const rows = Array.from({ length: 20 }, (_, i) => ({ region: `Region ${i}`, revenue: 1000 + i }));
const csv = `region,revenue\n${rows.map((r) => `${r.region},${r.revenue}`).join('\n')}\n`;

const reportTool = createTool({
  id: 'sales.report',
  description: 'Shows the sales table and writes it as CSV.',
  input: z.object({ rows: z.number().int().default(20), bytes: z.number().int().optional() }),
  invoke: async ({ input, displayWidget, addFileOutput }) => {
    await displayWidget(tableWidget, {
      title: 'Sales by region',
      columns: [{ key: 'region' }, { key: 'revenue', label: 'Revenue (€)' }],
      // A negative count makes rows the table's schema refuses (data from outside, which types cannot check).
      rows: input.rows < 0 ? ([{ region: { nested: true } }] as never) : rows.slice(0, input.rows),
    });
    const file = await addFileOutput({
      name: 'sales.csv',
      content: input.bytes ? new Uint8Array(input.bytes) : csv,
      summary: `Sales of ${input.rows} regions, one row per region.`,
    });
    return { regions: input.rows, file: file.fileId };
  },
});

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe('a tool that displays a widget and adds a file', () => {
  it('records both right after its output, in order; the model sees the file’s summary and no widget', async () => {
    const store = new MemoryStore();
    const t = await filesPlatform([reportTool], {
      store,
      plugins: [widgetsPlugin],
      script: [callTool('sales.report', {}), reply('The table is above; the CSV is attached.'), reply('ok')],
    });
    const prompt = await t.send('Sales report please');

    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'widget', 'file', 'text']);
    const [tool, widget, file] = prompt.output as [{ id: string }, WidgetOutput, FileOutput];
    expect(widget).toMatchObject({
      widget: 'table',
      toolCallId: tool.id,
      data: { title: 'Sales by region' },
    });
    expect(file).toMatchObject({ name: 'sales.csv', mediaType: 'text/csv', toolCallId: tool.id });
    expect(resultOf(prompt.output[0])).toEqual({
      type: 'success',
      output: { regions: 20, file: file.fileId },
    });
    expect((await store.prompts.get(prompt.id))?.output).toEqual(prompt.output);
    expect(sha256(await readFile(join(t.directory, file.storage.key)))).toBe(file.sha256);
    expect(file.sha256).toBe(sha256(csv));

    // The next prompt's view of this one, and promptsToMessages on the stored conversation.
    await t.send('Thanks');
    const history = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    for (const messages of [
      t.model.requests[2]!.messages,
      promptsToMessages(history, { outputs: t.platform.outputs }),
    ]) {
      assertWellFormed(messages);
      const sent = JSON.stringify(messages);
      expect(sent).toContain('Sales of 20 regions, one row per region.');
      expect(sent).toContain('sales.csv');
      expect(sent).not.toContain('Sales by region'); // the widget's data
      expect(sent).not.toContain('Region 7'); // neither the table's rows nor the file's bytes
    }
  });

  it('turns invalid widget data and an oversized file into errors the model reads, the record consistent', async () => {
    const store = new MemoryStore();
    const t = await filesPlatform([reportTool], {
      store,
      plugins: [widgetsPlugin],
      files: { maxFileBytes: 1024 },
      script: [
        callTool('sales.report', { rows: -1 }),
        callTool('sales.report', { rows: 3, bytes: 4096 }),
        reply('Both failed.'),
      ],
    });
    const prompt = await t.send('go');

    expect(prompt.state).toBe('completed');
    // The first call failed before anything was shown; the second showed its widget, then failed on the file.
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'tool', 'widget', 'text']);
    expect(errorMessageOf(prompt.output[0])).toContain("The data for widget 'table' does not");
    expect(errorMessageOf(prompt.output[1])).toBe(
      'File "sales.csv" is larger than the limit of 1 KB; nothing was stored.',
    );
    expect(await t.storedBlobs()).toEqual([]);
    expect((await store.prompts.get(prompt.id))?.output).toEqual(prompt.output);
    assertWellFormed(promptsToMessages([prompt], { outputs: t.platform.outputs }));
  });
});
