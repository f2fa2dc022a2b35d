import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel, type ScriptedTurn } from '@tessera/testing';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { type CreateServerOptions, createServer } from '../src/index.ts';

export const ALICE = 'alice-token-0123456789';
export const BOB = 'bob-token-0123456789ab';

/**
 * A real server on an ephemeral port, with a scripted model (or, with 'demo model', none: the demo model and
 * its tools) and two users.
 */
export async function testServer(
  script: ScriptedTurn[] | 'demo model' = [],
  options: CreateServerOptions = {},
  webDir?: string,
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-server-'));
  const model = new ScriptedModel(script === 'demo model' ? [] : script);
  const server = await createServer({
    dataDir,
    auth: { tokens: { [ALICE]: 'alice', [BOB]: 'bob' } },
    webDir: webDir ?? null,
    ...(script !== 'demo model' && { model }),
    ...options,
  }).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { url } = await server.listen({ port: 0 });
  const request = async (
    method: string,
    path: string,
    options: { token?: string | null; body?: unknown; raw?: string; form?: FormData } = {},
  ) => {
    const token = options.token === undefined ? ALICE : options.token;
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...((options.body !== undefined || options.raw !== undefined) && {
          'content-type': 'application/json',
        }),
      },
      body:
        options.form ??
        options.raw ??
        (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const contentType = response.headers.get('content-type');
    const text = await response.text();
    return {
      status: response.status,
      body: text && contentType?.includes('json') ? JSON.parse(text) : text,
      contentType,
      disposition: response.headers.get('content-disposition'),
    };
  };
  return {
    server,
    url,
    model,
    request,
    dataDir,
    async close() {
      await server.close({ graceMs: 50 });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// Loosely typed on purpose: tests read whichever fields the event type has.
export type Received = {
  id?: string;
  event: string;
  data: Record<string, unknown> & { prompt?: { state: string } };
};

/** Opens the conversation's event stream and collects events until `until` says stop (or the stream ends). */
export async function collectEvents(
  url: string,
  options: {
    token?: string;
    lastEventId?: string;
    until: (event: Received, all: Received[]) => boolean;
    /** Called at the stream's `ready` event: the server has attached it, events from now on reach it. */
    onReady?: () => void;
  },
): Promise<Received[]> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${options.token ?? ALICE}`,
      ...(options.lastEventId && { 'last-event-id': options.lastEventId }),
    },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
  const received: Received[] = [];
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const event = { id: value.id, event: value.event ?? 'message', data: JSON.parse(value.data) };
      received.push(event);
      if (event.event === 'ready') options.onReady?.();
      if (options.until(event, received)) break;
    }
  } finally {
    controller.abort();
  }
  return received;
}

/**
 * Opens the conversation's event stream and returns once the server has attached it (its `ready` event), so
 * that what the test does next is seen: no guessing how long attaching takes on a loaded machine.
 */
export async function attachEvents(
  url: string,
  options: Omit<Parameters<typeof collectEvents>[1], 'onReady'>,
): Promise<{ received: Promise<Received[]> }> {
  let onReady!: () => void;
  const attached = new Promise<void>((resolve) => (onReady = resolve));
  const received = collectEvents(url, { ...options, onReady });
  await Promise.race([attached, received]);
  return { received };
}

/**
 * Waits until `check` holds, polling; fails past `timeoutMs` (generous: CI machines are loaded, and a test
 * that waits on a state must not fail because the machine is slow).
 */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
