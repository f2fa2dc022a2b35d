// What MCP tools cost per model call: `node plugins/mcp/bench/prepare.ts` (or `pnpm --filter
// @tessera/plugin-mcp bench`). Three real stdio servers (the toolbox fixture, on the official SDK) with 100
// tools between them; measures prepare() alone, a whole round against one without the plugin, the
// first-call argument check (Ajv compiles then), and a reconnection with its listing.
import { fileURLToPath } from 'node:url';
import { type AnyPlugin, type AnyTool, type ContextItem, createPlatform } from '@tessera/core';
import { reply, ScriptedModel } from '@tessera/testing';
import { McpServersToken, mcpPlugin } from '../src/index.ts';

const TOOLBOX = fileURLToPath(new URL('../test/fixtures/toolbox-server.ts', import.meta.url));
// Each toolbox also has `grow`, `shrink`, `wait` and `cancellations`: 30 + 30 + 28 + 3 × 4 = 100 tools.
const server = (tools: number) => ({ command: process.execPath, args: [TOOLBOX, '--tools', String(tools)] });
const plugin = mcpPlugin({ servers: { a: server(30), b: server(30), c: server(28) } });

const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** Microseconds per run of `fn`, the median of `rounds` batches of `batch` runs. */
async function time(fn: () => unknown, batch: number, rounds = 7): Promise<number> {
  const results: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    results.push(((performance.now() - start) * 1000) / batch);
  }
  return median(results);
}

/** Microseconds per prompt of one model call (a reply, no tools called), with the given plugins. */
async function round(plugins: AnyPlugin[]): Promise<number> {
  const model = new ScriptedModel();
  const platform = createPlatform({ plugins, model });
  await platform.open();
  const { id: conversationId } = await platform.conversations.create({ userId: 'bench' });
  const send = async () => {
    model.push(reply('Ok.'));
    await platform.send({ conversationId, userId: 'bench', input: 'Hi' });
  };
  for (let i = 0; i < 50; i++) await send(); // warm up
  const result = await time(send, 100);
  await platform.close();
  return result;
}

const platform = createPlatform({ plugins: [plugin], model: new ScriptedModel() });
const started = performance.now();
await platform.open();
const openMs = performance.now() - started;
const servers = platform.services.resolve(McpServersToken);
const total = servers.list().reduce((sum, status) => sum + status.tools.length, 0);

const signal = new AbortController().signal;
const offered: AnyTool[] = [];
const prepare = () => {
  const tools: AnyTool[] = [];
  const context: ContextItem[] = [];
  return plugin.prepare!({ tools, context, signal } as never);
};
await prepare();
await plugin.prepare!({ tools: offered, context: [], signal } as never);
const prepareUs = await time(prepare, 10_000);

const mcpTools = offered.filter((tool) => tool.id.startsWith('a.tool_'));
const args = { text: 'hello', times: 2 };
const firstCheckUs = await time(() => mcpTools.pop()!.input.safeParse(args), 1, 25);
const checkUs = await time(() => offered[0]!.input.safeParse(args), 10_000);

const reconnects: number[] = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  await servers.reconnect('a');
  reconnects.push(performance.now() - start);
}
await platform.close();

// Interleaved, so warm-up and the machine's load weigh on both alike.
const withRuns: number[] = [];
const withoutRuns: number[] = [];
for (let i = 0; i < 3; i++) {
  withoutRuns.push(await round([]));
  withRuns.push(await round([plugin]));
}
const withMcp = median(withRuns);
const without = median(withoutRuns);

const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
console.log(`Node ${process.version}, ${total} MCP tools on 3 stdio servers\n`);
console.log('| what | cost |\n| --- | ---: |');
console.log(`| open(): start 3 servers, initialize, list their tools | ${openMs.toFixed(0)} ms |`);
console.log(`| prepare(): offer the ${total} tools (no list changed) | ${fmt(prepareUs)} |`);
console.log(`| a round (one model call), without the plugin | ${fmt(without)} |`);
console.log(`| a round with the ${total} MCP tools | ${fmt(withMcp)} |`);
console.log(`| first argument check of a tool (Ajv compiles its schema) | ${fmt(firstCheckUs)} |`);
console.log(`| later argument checks | ${fmt(checkUs)} |`);
console.log(
  `| reconnect one server (restart, initialize, list 34 tools) | ${median(reconnects).toFixed(0)} ms |`,
);
