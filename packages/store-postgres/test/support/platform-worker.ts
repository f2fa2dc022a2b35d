/**
 * A platform in its own process, over the PostgreSQL database in DATABASE_URL (schema TESSERA_SCHEMA), driven
 * by its parent test over IPC. Run with `node` (types stripped); never imported by the tests themselves.
 */
import { createPlatform, createTool, definePlugin, type ModelProvider, type Platform } from '@tessera/core';
import { type ScriptedTurn, scriptedModel } from '@tessera/testing';
import { z } from 'zod';
import { createPostgresStore } from '../../src/index.ts';

export type WorkerRequest = { id: number; command: string; args: Record<string, unknown> };
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; code?: string; message: string } };
/** Messages the worker sends on its own: ready, and the moments a test waits for before killing it. */
export type WorkerEvent = { event: 'ready' | 'tool-started' | 'flooding'; pid: number };

const send = (message: WorkerReply | WorkerEvent) => process.send?.(message);
const ran: { tool: string; input: unknown }[] = [];

const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

const plugin = definePlugin({
  id: 'ops',
  tools: [
    createTool({
      id: 'ops.delete',
      description: 'Delete a record (needs approval).',
      input: z.object({ id: z.string() }),
      requireApproval: { required: true, reason: 'Deleting is permanent.' },
      invoke: ({ input }) => {
        ran.push({ tool: 'ops.delete', input });
        return { deleted: input.id };
      },
    }),
    createTool({
      id: 'ops.echo',
      description: 'Echo (read-only).',
      input: z.object({ text: z.string() }),
      readOnly: true,
      invoke: ({ input }) => {
        ran.push({ tool: 'ops.echo', input });
        return { echoed: input.text };
      },
    }),
    createTool({
      id: 'ops.hang',
      description: 'Starts, has side effects, never finishes.',
      input: z.object({}),
      invoke: ({ signal }) => {
        ran.push({ tool: 'ops.hang', input: {} });
        send({ event: 'tool-started', pid: process.pid });
        return never(signal);
      },
    }),
    createTool({
      id: 'ops.big',
      description: 'Returns a large result, with characters of every width.',
      input: z.object({ size: z.number().int() }),
      readOnly: true,
      invoke: ({ input }) => ({ text: 'aé€😀'.repeat(Math.ceil(input.size / 4)) }),
    }),
    createTool({
      id: 'ops.flood',
      description: 'Emits text outputs as fast as it can, forever.',
      input: z.object({}),
      invoke: async ({ emit, signal }) => {
        for (let i = 0; !signal.aborted; i++) {
          await emit({ type: 'text', text: `chunk ${i} `.repeat(50) });
          if (i === 50) send({ event: 'flooding', pid: process.pid });
        }
      },
    }),
  ],
});

const fromEnv = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
// The server in DATABASE_URL, or PGlite in PGLITE_DATA_DIR when that is set.
const store = await createPostgresStore({
  schema: process.env.TESSERA_SCHEMA ?? 'tessera',
  dataDir: process.env.PGLITE_DATA_DIR,
  maxConnections: 4,
  relayHeartbeatMs: fromEnv('TESSERA_RELAY_HEARTBEAT_MS'),
  relayExpiryMs: fromEnv('TESSERA_RELAY_EXPIRY_MS'),
});
// The script is replaced per scenario, so turns one scenario left unused never leak into the next.
let model = scriptedModel();
const provider: ModelProvider = {
  id: 'scripted',
  stream: (request, signal) => model.stream(request, signal),
};
const platform: Platform = createPlatform({
  plugins: [plugin],
  store,
  model: provider,
  toolTimeoutMs: 600_000,
  recoverEveryMs: fromEnv('TESSERA_RECOVER_EVERY_MS'),
  remoteCancelTimeoutMs: fromEnv('TESSERA_REMOTE_CANCEL_TIMEOUT_MS'),
});
const done: Promise<unknown>[] = [];
const watched: unknown[] = [];

const commands: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
  script: async ({ turns }) => {
    model = scriptedModel(turns as ScriptedTurn[]);
  },
  createConversation: async ({ userId }) => platform.conversations.create({ userId: userId as string }),
  /** Starts a prompt and answers once it exists; its loop goes on (see `settle`). */
  start: async ({ conversationId, userId, input }) => {
    const run = await platform.start({
      conversationId: conversationId as string,
      userId: userId as string,
      input: input as string,
    });
    done.push(run.done);
    return run.prompt.id;
  },
  send: async ({ conversationId, userId, input }) =>
    platform.send({
      conversationId: conversationId as string,
      userId: userId as string,
      input: input as string,
    }),
  /** Sends a steering or follow-up message; a prompt it started at once goes with those `settle` waits for. */
  message: async ({ conversationId, userId, input, mode }) => {
    const sent = await platform.messages.send({
      conversationId: conversationId as string,
      userId: userId as string,
      input: input as string,
      mode: mode as 'steer' | 'queue',
    });
    if (sent.run) done.push(sent.run.done);
    return sent.message;
  },
  approve: async ({ toolCallId, userId }) =>
    platform.approve(toolCallId as string, { userId: userId as string }),
  settle: async () => Promise.allSettled(done.splice(0)).then(() => undefined),
  /** Recovers orphaned prompts and answers with each once its resumed loop has stopped. */
  recover: async () => Promise.all((await platform.recover()).map((run) => run.done)),
  ran: async () => ran,
  /** Opens the platform: from here it resumes other processes' orphans by itself (`recoverEveryMs`). */
  open: async () => platform.open(),
  /** The runner this process's store holds the lock of. */
  runner: async () => store.runner,
  /**
   * Starts recording the events of a conversation seen in this process (its own, and relayed ones), as a
   * client's stream would: following it, once the relay routes it here.
   */
  watch: async ({ conversationId }) => {
    platform.events.subscribe({ conversationId: conversationId as string }, ({ seq: _, ...event }) => {
      watched.push(event);
    });
    await platform.events.follow(`conversation:${conversationId as string}`).ready;
  },
  watched: async () => watched,
  cancel: async ({ promptId, userId }) => platform.cancel(promptId as string, { userId: userId as string }),
  /**
   * Fires a trigger the way a scheduler would, racing other processes: read it, claim the next firing with
   * one conditional write, retry when another process claimed it first. Returns the firings it claimed.
   */
  claimFirings: async ({ triggerId, until }) => {
    const claimed: number[] = [];
    for (;;) {
      const trigger = await store.records.get<{ next: number }>('triggers', triggerId as string);
      if (!trigger || trigger.value.next >= (until as number)) return claimed;
      try {
        await store.records.put(
          'triggers',
          triggerId as string,
          { next: trigger.value.next + 1, firedBy: process.pid },
          { expectedVersion: trigger.version },
        );
        claimed.push(trigger.value.next);
      } catch (error) {
        if ((error as { code?: string }).code !== 'version_conflict') throw error;
      }
    }
  },
  close: async () => {
    await platform.close();
    setImmediate(() => process.exit(0));
  },
};

process.on('message', async (request: WorkerRequest) => {
  try {
    const value = await commands[request.command]!(request.args);
    send({ id: request.id, ok: true, value: JSON.parse(JSON.stringify(value ?? null)) });
  } catch (error) {
    const e = error as Error & { code?: string };
    send({ id: request.id, ok: false, error: { name: e.name, code: e.code, message: e.message } });
  }
});
send({ event: 'ready', pid: process.pid });
