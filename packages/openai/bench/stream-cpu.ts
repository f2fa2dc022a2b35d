/**
 * The model client's CPU per streamed call: `pnpm bench` in this package (issue 36). A server in a child
 * process (so its CPU is not counted) answers Chat Completions with recorded OpenAI streams, a tool call and a
 * text answer in turn (test/fixtures/recorded); this process makes the calls through `createOpenAIProvider`,
 * 10 at a time, and reads its own CPU time (`process.cpuUsage`). Each transport: the default (`requestFetch`,
 * undici's `request()`) and Node's `fetch`, in alternating rounds; medians of 5 rounds of 4,000 calls.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelMessage, ModelRequest } from '@tessera/core';
import { createOpenAIProvider } from '../src/index.ts';

const FIXTURES = new URL('../test/fixtures/recorded/', import.meta.url);

if (process.argv[2] === '--serve') {
  const { readFileSync } = await import('node:fs');
  const [toolCall, text] = ['chat-stream-tool-call.sse', 'chat-stream-text.sse'].map((name) =>
    readFileSync(new URL(name, FIXTURES), 'utf8'),
  );
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(body.includes('"role":"tool"') ? text : toolCall);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
} else {
  await main();
}

async function main() {
  const child = fork(new URL(import.meta.url), ['--serve']);
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const transports = {
    'requestFetch (default)': createOpenAIProvider({ api: 'chat', baseURL, apiKey: 'bench' }),
    "Node's fetch": createOpenAIProvider({ api: 'chat', baseURL, apiKey: 'bench', fetch: globalThis.fetch }),
  };
  const tools = [
    {
      name: 'lookup',
      description: 'Looks a record up by its id.',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  ];
  const user: ModelMessage = { type: 'message', role: 'user', content: 'What is record 42?' };
  const conversations: ModelMessage[][] = [
    [user],
    [
      user,
      { type: 'function_call', callId: 'call_1', name: 'lookup', arguments: '{"id":"42"}' },
      { type: 'function_call_output', callId: 'call_1', output: '{"id":"42","name":"blue widget"}' },
    ],
  ];
  const requests: ModelRequest[] = conversations.map((messages) => ({
    model: 'gpt-4o-mini',
    modelClass: 'normal',
    instructions: 'Be brief.',
    tools,
    messages,
  }));
  const run = async (provider: (typeof transports)[keyof typeof transports], calls: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < calls) {
          const request = requests[next++ % 2]!;
          for await (const _event of provider.stream(request, new AbortController().signal));
        }
      }),
    );
  };
  const perCall = new Map<string, number[]>(Object.keys(transports).map((name) => [name, []]));
  for (const provider of Object.values(transports)) await run(provider, 2_000); // warm-up
  for (let round = 0; round < 5; round++) {
    for (const [name, provider] of Object.entries(transports)) {
      const before = process.cpuUsage();
      await run(provider, 4_000);
      const used = process.cpuUsage(before);
      perCall.get(name)!.push((used.user + used.system) / 1000 / 4_000);
    }
  }
  console.log('CPU ms per streamed Chat Completions call (10 at a time, median of 5 rounds of 4,000):');
  for (const [name, values] of perCall) {
    const sorted = values.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(24)} ${sorted[2]!.toFixed(3)}  (${sorted.map((v) => v.toFixed(3)).join(', ')})`,
    );
  }
  child.kill();
}
