import { createTool, definePlugin } from '@tessera/core';
// Type-only: brings addFileOutput into ToolInput (the files plugin provides it at run time).
import type {} from '@tessera/plugin-files';
import { chartWidget, keyValueWidget, progressWidget, tableWidget } from '@tessera/plugin-widgets';
import { z } from 'zod';
import type { DemoRule } from './demo-model.ts';

/** Deterministic made-up numbers, so the demo looks the same every time (and never pretends to be real). */
const pseudo = (seed: string, i: number) => {
  let h = 2166136261;
  for (const char of `${seed}:${i}`) h = Math.imul(h ^ char.charCodeAt(0), 16777619);
  return ((h >>> 0) % 1000) / 1000;
};

const weather = createTool({
  id: 'demo.weather',
  description: 'Made-up weather for a city (demo data), shown as a card and a chart.',
  input: z.object({ city: z.string().min(1).max(60) }),
  readOnly: true,
  invoke: async ({ input, displayWidget }) => {
    const temps = Array.from({ length: 8 }, (_, i) => Math.round(8 + 10 * pseudo(input.city, i)));
    await displayWidget(keyValueWidget, {
      title: `${input.city} (made-up demo data)`,
      items: [
        { label: 'Now', value: `${temps[0]} °C` },
        { label: 'High', value: `${Math.max(...temps)} °C` },
        { label: 'Low', value: `${Math.min(...temps)} °C` },
      ],
    });
    await displayWidget(chartWidget, {
      title: 'Next 24 hours (made-up)',
      kind: 'line',
      x: { label: 'Hour', scale: 'category' },
      y: { unit: '°C' },
      series: [
        { name: input.city, points: temps.map((y, i) => ({ x: `${String(i * 3).padStart(2, '0')}:00`, y })) },
      ],
    });
    return { city: input.city, now: temps[0], high: Math.max(...temps), low: Math.min(...temps), demo: true };
  },
});

const report = createTool({
  id: 'demo.report',
  description: 'A made-up sales report (demo data): a table, and the same data as a CSV file.',
  input: z.object({ products: z.number().int().min(1).max(50).default(8) }),
  invoke: async ({ input, displayWidget, updateWidget, addFileOutput }) => {
    const progress = await displayWidget(progressWidget, {
      label: 'Building the report',
      value: 0,
      max: input.products,
    });
    const rows = Array.from({ length: input.products }, (_, i) => ({
      product: `Product ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? i : ''}`,
      units: Math.round(100 * pseudo('units', i)),
      revenue: Math.round(5000 * pseudo('revenue', i)),
    }));
    await updateWidget(progress, progressWidget, {
      label: 'Report ready',
      value: input.products,
      max: input.products,
      status: 'done',
    });
    await displayWidget(tableWidget, {
      columns: [
        { key: 'product', label: 'Product' },
        { key: 'units', label: 'Units' },
        { key: 'revenue', label: 'Revenue ($)' },
      ],
      rows,
    });
    const csv = `product,units,revenue\n${rows.map((r) => `${r.product},${r.units},${r.revenue}`).join('\n')}\n`;
    const file = await addFileOutput({
      name: 'sales-report.csv',
      content: csv,
      summary: `Made-up sales of ${rows.length} products (demo data).`,
    });
    return {
      products: rows.length,
      totalRevenue: rows.reduce((sum, r) => sum + r.revenue, 0),
      file: file.fileId,
    };
  },
});

const deleteRecords = createTool({
  id: 'demo.delete_records',
  description: 'Delete records by name (a pretend database, to show approval).',
  input: z.object({ names: z.array(z.string().min(1)).min(1) }),
  requireApproval: ({ input }) => ({
    required: true,
    reason: `This permanently deletes ${input.names.length} record(s): ${input.names.join(', ')}.`,
  }),
  invoke: ({ input }) => ({ deleted: input.names }),
});

const transfer = createTool({
  id: 'demo.transfer',
  description: 'Transfer money (pretend), to show approval that depends on the input.',
  input: z.object({ amount: z.number().positive(), to: z.string().min(1) }),
  requireApproval: ({ input }) => ({
    required: input.amount > 100,
    reason: `Transfers over $100 need your approval: $${input.amount} to ${input.to}.`,
  }),
  invoke: ({ input }) => ({
    transferred: input.amount,
    to: input.to,
    reference: `TX-${Date.now().toString(36).toUpperCase()}`,
  }),
});

/** Tools that exist to show the platform's features without a network; they show results with widgets and files. */
export const demoPlugin = definePlugin({
  id: 'demo',
  requires: ['widgets', 'files'],
  tools: [weather, report, deleteRecords, transfer],
});

const phrase = (text: string | undefined, fallback: string) =>
  text?.trim().replace(/[.!?]+$/, '') || fallback;

/** A rule's `say`: the sentence for a tool's output of the shape `schema` describes (else none: the raw output). */
const sentence =
  <T>(schema: z.ZodType<T>, say: (output: T) => string) =>
  (output: unknown) => {
    const read = schema.safeParse(output);
    return read.success ? say(read.data) : undefined;
  };

/** "a", "a and b", "a, b and c" */
const listed = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** What the demo model understands, one rule per feature; only rules whose tool is offered apply. */
export const demoRules: DemoRule[] = [
  {
    tool: 'demo.weather',
    example: '"weather in Paris" (a card and a chart widget)',
    match: /\b(weather|forecast)\b(?:\s+(?:in|for)\s+([\p{L} .'-]{1,40}))?/iu,
    args: (_, match) => ({ city: phrase(match[2], 'Paris') }),
    say: sentence(
      z.object({ city: z.string(), now: z.number(), high: z.number(), low: z.number() }),
      ({ city, now, high, low }) =>
        `It is ${now} °C in ${city} now, with a high of ${high} °C and a low of ${low} °C today (the numbers are made up).`,
    ),
  },
  {
    tool: 'demo.report',
    example: '"make a sales report" (a table widget and a CSV file)',
    match: /\breport\b/i,
    args: () => ({ products: 8 }),
    say: sentence(
      z.object({ products: z.number(), totalRevenue: z.number() }),
      ({ products, totalRevenue }) =>
        `Here is the sales report: ${products} products, $${totalRevenue.toLocaleString('en-US')} of revenue in all (the numbers are made up). The table is above, and the same data is in the CSV file.`,
    ),
  },
  {
    tool: 'demo.delete_records',
    example: '"delete records alpha and beta" (asks for your approval first)',
    match: /\b(delete|remove)\b.*?\brecords?\b\s*(.*)/i,
    args: (_, match) => {
      const names = (match[2] ?? '')
        .split(/,|\band\b/)
        .map((name) => phrase(name, ''))
        .filter(Boolean)
        .slice(0, 10);
      return { names: names.length > 0 ? names : ['example'] };
    },
    say: sentence(
      z.object({ deleted: z.array(z.string()) }),
      ({ deleted }) => `Deleted ${listed(deleted)} from the pretend database.`,
    ),
  },
  {
    tool: 'demo.transfer',
    say: sentence(
      z.object({ transferred: z.number(), to: z.string(), reference: z.string() }),
      ({ transferred, to, reference }) =>
        `Sent $${transferred} to ${to} (pretend money, reference ${reference}).`,
    ),
    example: '"transfer $50 to Ada" (no approval) or "transfer $500 to Ada" (approval)',
    // One run of spaces before the amount, "$" or not: two (`\s*\$?\s*`) backtrack quadratically over many spaces.
    match: /\b(transfer|send|pay)\b\s*(?:\$\s*)?(\d+(?:\.\d+)?)\s*(?:dollars\s*)?(?:to\s+(\w+))?/i,
    args: (_, match) => ({ amount: Number(match[2]), to: match[3] ?? 'Ada' }),
  },
  {
    tool: 'skills.activate',
    example: '"use the meeting-notes skill" (activates a skill: its instructions join the context)',
    match: /\b(?:use|activate)\s+(?:the\s+)?([a-z0-9-]+)\s+skill\b/i,
    args: (_, match) => ({ name: match[1]!.toLowerCase() }),
    say: sentence(
      z.object({ active: z.array(z.string()) }),
      ({ active }) =>
        `Active skills in this conversation: ${listed(active)}. Their instructions are part of my context from now on.`,
    ),
  },
  {
    tool: 'blueprints.search',
    example: '"find blueprints about refunds" (searches saved procedures)',
    match: /\bfind\s+(?:a\s+)?blueprints?\s+(?:about|for|on)\s+(.+)/i,
    args: (_, match) => ({ query: phrase(match[1], 'status') }),
    say: sentence(z.array(z.object({ title: z.string(), summary: z.string() })), (found) =>
      found.length === 0
        ? 'No blueprint matches that.'
        : `I found ${found.length === 1 ? 'one blueprint' : `${found.length} blueprints`}: ${found.map((b) => `“${b.title}” (${phrase(b.summary, '')})`).join('; ')}.`,
    ),
  },
  {
    tool: 'blueprints.save',
    example: '"save blueprint Water the plants: fill the can, water each pot" (remembers it, with approval)',
    match: /\bsave (?:a |the )?blueprint\s+([^:]{3,120}):\s*(.{3,})/i,
    args: (_, match) => ({
      title: phrase(match[1], 'Untitled'),
      summary: `How to ${phrase(match[1], 'do it').toLowerCase()}.`,
      steps: (match[2] ?? '')
        .split(/,|;|\bthen\b/)
        .map((step) => step.trim())
        .filter(Boolean)
        .map((step, i) => `${i + 1}. ${step}`)
        .join('\n'),
      tags: ['demo'],
    }),
    say: sentence(z.object({ title: z.string() }), ({ title }) => `Saved the blueprint “${title}”.`),
  },
  {
    tool: 'trigger.create',
    example:
      '"remind me in 2 minutes to stretch" or "remind me every 30 minutes to drink water" (a trigger, with approval)',
    match: /\bremind me\s+(in|every)\s+(\d+)\s*min(?:ute)?s?\s+(?:to\s+)?(.+)/i,
    args: (_, match) => ({
      name: phrase(match[3], 'Reminder').slice(0, 80),
      instruction: `Remind the user to ${phrase(match[3], 'do what they asked')}.`,
      // "in N minutes" is the first fire of an interval, run one time only: the plugin's clock sets the time.
      schedule: { kind: 'interval', everyMinutes: Number(match[2]) },
      ...(match[1]?.toLowerCase() === 'in' && { maxRuns: 1 }),
    }),
    say: sentence(
      z.object({ name: z.string(), when: z.string() }),
      ({ name, when }) => `I set up the trigger “${name}”: ${phrase(when, 'as you asked')}.`,
    ),
  },
];
