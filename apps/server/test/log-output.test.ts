import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLog, logFormat } from '../src/log-output.ts';
import { testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Where a logger writes, kept in memory: a terminal's (`isTTY`) or a pipe's. */
function memoryOutput(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

describe('the log format', () => {
  it('is readable at a terminal and JSON elsewhere, unless TESSERA_LOG_FORMAT says which', () => {
    expect(logFormat({}, { isTTY: true })).toBe('pretty');
    expect(logFormat({}, { isTTY: false })).toBe('json');
    expect(logFormat({}, {})).toBe('json');
    expect(logFormat({ TESSERA_LOG_FORMAT: 'json' }, { isTTY: true })).toBe('json');
    expect(logFormat({ TESSERA_LOG_FORMAT: 'PRETTY' }, { isTTY: false })).toBe('pretty');
    expect(logFormat({ TESSERA_LOG_FORMAT: 'xml' }, { isTTY: true })).toBe('pretty');
  });

  it('writes a request as one short line at a terminal: method, route, status and duration', async () => {
    const output = memoryOutput(true);
    t = await testServer([], {
      logger: createLog('pretty', { destination: output.stream, env: { NO_COLOR: '1' } }),
    });
    await t.request('GET', '/api/me');
    const line = output.lines.find((l) => l.includes('/api/me'));
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/me 200 \d+(\.\d)? ms \{"userId":"alice"\}$/);
    const all = output.lines.join('\n');
    expect(all).not.toMatch(/"level"|"hostname"/);
    expect(all).not.toContain('\u001b['); // no colours: NO_COLOR
  });

  it('writes JSON lines otherwise, the fields a log collector reads', async () => {
    const output = memoryOutput(false);
    t = await testServer([], { logger: createLog('json', { destination: output.stream }) });
    await t.request('GET', '/api/me');
    const records = output.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        name: 'tessera',
        msg: 'request',
        method: 'GET',
        route: '/api/me',
        status: 200,
      }),
    );
  });
});
