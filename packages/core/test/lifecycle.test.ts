import { reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  createPlatform,
  definePlugin,
  MemoryStore,
  type Platform,
  type PluginDefinition,
  PluginError,
  type PluginStartContext,
  type Store,
  StoreToken,
} from '../src/index.ts';

/** Plugins that log their start and stop; `extra` overrides either. */
function logging(log: string[]) {
  return (id: string, extra: Partial<PluginDefinition<Record<string, never>>> = {}) =>
    definePlugin({
      id,
      start: () => void log.push(`start ${id}`),
      stop: () => void log.push(`stop ${id}`),
      ...extra,
    });
}

/** A store that counts how often it was closed. */
function countingStore() {
  const closed = { count: 0 };
  const store: Store = Object.assign(new MemoryStore(), {
    close: async () => {
      closed.count++;
    },
  });
  return { store, closed };
}

describe('plugin lifecycle', () => {
  it('starts plugins once, after those they require, and stops them in reverse before closing the store', async () => {
    const log: string[] = [];
    const plugin = logging(log);
    const { store, closed } = countingStore();
    const platform = createPlatform({
      model: new ScriptedModel(),
      store,
      plugins: [
        plugin('reports', { requires: ['mail', 'queue'] }),
        plugin('audit'),
        plugin('mail', { requires: ['queue'] }),
        plugin('queue'),
        definePlugin({ id: 'plain' }), // no lifecycle of its own
      ],
    });
    expect(log).toEqual([]); // createPlatform starts nothing
    await Promise.all([platform.open(), platform.open()]);
    await platform.open();
    expect(log).toEqual(['start queue', 'start mail', 'start reports', 'start audit']);

    await Promise.all([platform.close(), platform.close()]);
    expect(log.slice(4)).toEqual(['stop audit', 'stop reports', 'stop mail', 'stop queue']);
    expect(closed.count).toBe(1);
    await expect(platform.open()).rejects.toSatisfy((error) => ConflictError.is(error));
  });

  it("gives start() and stop() the platform and its services, and start() a signal aborted before the plugin's stop()", async () => {
    let context: PluginStartContext | undefined;
    let abortedAtStop: boolean | undefined;
    let stoppedFor: Platform | undefined;
    const watcher = definePlugin({
      id: 'watcher',
      start: (ctx) => {
        context = ctx;
      },
      stop: ({ platform }) => {
        abortedAtStop = context?.signal.aborted;
        stoppedFor = platform;
      },
    });
    const platform: Platform = createPlatform({ model: new ScriptedModel(), plugins: [watcher] });
    await platform.open();
    expect(context?.platform).toBe(platform);
    expect(context?.services.resolve(StoreToken)).toBe(platform.store);
    expect(context?.signal.aborted).toBe(false);
    await platform.close();
    expect(abortedAtStop).toBe(true);
    expect(stoppedFor).toBe(platform);
  });

  it('stops the plugins already started when a start throws, and rejects with a PluginError naming the plugin', async () => {
    const log: string[] = [];
    const plugin = logging(log);
    let failing = true;
    const platform = createPlatform({
      model: new ScriptedModel(),
      plugins: [
        plugin('queue'),
        plugin('mail', {
          start: () => {
            if (failing) throw new Error('SMTP server refused the connection');
            log.push('start mail');
          },
        }),
        plugin('audit'),
      ],
    });
    const error = await platform.open().catch((e: unknown) => e);
    expect(PluginError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'plugin_error',
      pluginId: 'mail',
      phase: 'start',
      message: "Plugin 'mail' failed in start(): SMTP server refused the connection",
      cause: new Error('SMTP server refused the connection'),
    });
    expect(log).toEqual(['start queue', 'stop queue']);

    // Everything was stopped, so open() can be tried again once the cause is gone.
    failing = false;
    await platform.open();
    expect(log.slice(2)).toEqual(['start queue', 'start mail', 'start audit']);
    await platform.close();
  });

  it('reports a stop that throws, stops the others all the same, then cancels prompts and closes the store', async () => {
    const log: string[] = [];
    const plugin = logging(log);
    const reported: PluginError[] = [];
    const { store, closed } = countingStore();
    const platform = createPlatform({
      model: new ScriptedModel([reply('hi')]),
      store,
      onPluginError: (error) => reported.push(error),
      plugins: [
        plugin('queue'),
        plugin('mail', {
          stop: () => {
            throw new Error('still sending');
          },
        }),
        plugin('audit', { stop: async () => void log.push('stop audit') }),
      ],
    });
    await platform.open();
    await platform.close();
    expect(log).toEqual(['start queue', 'start mail', 'start audit', 'stop audit', 'stop queue']);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ pluginId: 'mail', phase: 'stop' });
    expect(reported[0]?.message).toBe("Plugin 'mail' failed in stop(): still sending");
    expect(closed.count).toBe(1);
  });

  it('writes reported errors to the console when the app gives no onPluginError', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const platform = createPlatform({
        model: new ScriptedModel(),
        plugins: [
          definePlugin({
            id: 'flaky',
            stop: () => {
              throw new Error('stuck');
            },
          }),
        ],
      });
      await platform.open();
      await platform.close();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]?.[0]).toMatchObject({ pluginId: 'flaky', phase: 'stop' });
    } finally {
      spy.mockRestore();
    }
  });

  it("passes failures a plugin's background work reports to onPluginError, naming the plugin", async () => {
    const reported: PluginError[] = [];
    let report: ((error: unknown) => void) | undefined;
    const platform = createPlatform({
      model: new ScriptedModel(),
      onPluginError: (error) => reported.push(error),
      plugins: [
        definePlugin({
          id: 'jobs',
          start: ({ reportError }) => {
            report = reportError;
          },
        }),
      ],
    });
    await platform.open();
    report?.(new Error('job 7 failed'));
    expect(reported.map((e) => [e.pluginId, e.phase, e.message])).toEqual([
      ['jobs', 'background', "Plugin 'jobs' failed in its background work: job 7 failed"],
    ]);
    await platform.close();
  });

  it('runs prompts without open(), and stops nothing on close() when nothing was started', async () => {
    const log: string[] = [];
    const platform = createPlatform({
      model: new ScriptedModel([reply('hi')]),
      plugins: [logging(log)('a')],
    });
    const conversation = await platform.conversations.create({ userId: 'u' });
    expect((await platform.send({ conversationId: conversation.id, userId: 'u', input: 'x' })).state).toBe(
      'completed',
    );
    await platform.close();
    expect(log).toEqual([]);
  });

  it('waits for an open() in progress before close() stops what it started', async () => {
    const log: string[] = [];
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const platform = createPlatform({
      model: new ScriptedModel(),
      plugins: [
        logging(log)('db', {
          start: async () => {
            await slow;
            log.push('start db');
          },
        }),
        logging(log)('cache'),
      ],
    });
    const opening = platform.open();
    const closing = platform.close();
    release();
    await opening;
    await closing;
    // close() came before 'cache' was reached: it never starts, and 'db' is stopped.
    expect(log).toEqual(['start db', 'stop db']);
  });
});
