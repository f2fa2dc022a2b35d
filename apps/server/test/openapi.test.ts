import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { collectEvents, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const REDOCLY = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);

/** Runs Redocly's CLI with this package's redocly.yaml; no telemetry, no update check: it needs no network. */
function redocly(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [REDOCLY, ...args, '--config', join(import.meta.dirname, '../redocly.yaml')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

it('serves an OpenAPI document that Redocly lints clean (recommended rules, warnings as errors)', async () => {
  t = await testServer();
  const document = await (await fetch(`${t.url}/openapi.json`)).text();
  const folder = await mkdtemp(join(tmpdir(), 'tessera-openapi-'));
  try {
    await writeFile(join(folder, 'openapi.json'), document);
    const { code, output } = await redocly(['lint', join(folder, 'openapi.json'), '--format', 'stylish']);
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('valid') });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const { paths, servers, info } = JSON.parse(document);
  expect(servers).toEqual([{ url: '/', description: 'This server' }]);
  expect(info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  const events = paths['/api/conversations/{id}/events'].get;
  expect(events.operationId).toBe('streamConversationEvents');
  expect(Object.keys(events.responses[200].content)).toEqual(['text/event-stream']);
});

type DocumentedOperation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

it('documents every operation under one described tag, with a short summary, a description and examples', async () => {
  // The default plugins, with routes of their own (MCP's, only when configured, are documented alike).
  t = await testServer();
  const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
    info: { description: string };
    tags: { name: string; description: string }[];
    paths: Record<string, Record<string, DocumentedOperation>>;
  };
  const tags = new Map<string, string>(
    document.tags.map((tag: { name: string; description: string }) => [tag.name, tag.description]),
  );
  for (const description of tags.values()) expect(description.length).toBeGreaterThan(10);
  const operations: DocumentedOperation[] = Object.values(document.paths).flatMap((path) =>
    Object.values(path!),
  );
  expect(operations.length).toBeGreaterThan(30);
  const problems = operations.flatMap(({ operationId, tags: named, summary, description, ...op }) => {
    const jsonBodies = [
      ...Object.entries(op.requestBody?.content ?? {}).map(
        ([type, body]) => ['request', type, body] as const,
      ),
      ...Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, r]) =>
          Object.entries(r.content ?? {}).map(([type, b]) => [status, type, b] as const),
        ),
    ].filter(([, type]) => type === 'application/json');
    return [
      ...(named?.length === 1 && tags.has(named[0]!) ? [] : [`${operationId}: tags ${named}`]),
      ...(summary && summary.length <= 60 ? [] : [`${operationId}: summary '${summary}'`]),
      ...((description?.length ?? 0) > 20 ? [] : [`${operationId}: no description`]),
      ...jsonBodies
        .filter(([, , body]) => body.example === undefined)
        .map(([which]) => `${operationId}: no ${which} example`),
    ];
  });
  expect(problems).toEqual([]);
  expect(new Set(operations.flatMap((op) => op.tags)).size).toBe(tags.size); // no tag without operations
  // The introduction says where a token comes from.
  expect(document.info.description).toContain('local-token');
  expect(document.info.description).toContain('TESSERA_TOKENS');
});

it('answers an event id it cannot resume from with `reset`, never with the whole log', async () => {
  t = await testServer();
  const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
  const url = `${t.url}/api/conversations/${conversation.id}/events`;
  const [ready] = await collectEvents(url, { until: (e) => e.event === 'ready' });
  const boot = String(ready!.data.boot);
  for (const lastEventId of [
    `${boot}-`,
    `${boot}-x`,
    `${boot}-1-2`,
    `${boot}--1`,
    `${boot}-1.5`,
    `${boot}-999999`,
    boot,
  ]) {
    const events = await collectEvents(url, { lastEventId, until: (e) => e.event === 'ready' });
    expect([lastEventId, events.map((e) => e.event)]).toEqual([lastEventId, ['reset', 'ready']]);
  }
  expect(
    (await collectEvents(url, { lastEventId: `${boot}-0`, until: (e) => e.event === 'ready' })).map(
      (e) => e.event,
    ),
  ).toEqual(['ready']);
});

it('documents the 403 of every operation that changes something: a cookie alone, without X-Requested-With, is refused', async () => {
  t = await testServer();
  const { paths } = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method} ${path}`, op, method })),
  );
  const changing = operations.filter(({ method, op }) => method !== 'get' && op.security?.length !== 0);
  expect(changing.filter(({ op }) => !op.responses[403]).map(({ name }) => name)).toEqual([]);
  expect(changing.map(({ name }) => name)).toContain('post /api/conversations/{id}/prompts');
  const reads = operations.filter(({ method }) => method === 'get');
  expect(reads.filter(({ op }) => op.responses[403]).map(({ name }) => name)).toEqual([]);
});

type Operation = { security?: unknown[]; responses: Record<string, unknown> };
