import { ConflictError, PluginError } from '../errors.ts';
import type { AnyPlugin, PluginStartContext, PluginStopContext } from '../plugins/define-plugin.ts';

/**
 * Starts the plugins' background work once, in dependency order, and stops it in reverse order. A start that
 * throws stops the plugins already started; a stop that throws is reported and the others still stop.
 * `close()` stops what was started (after an `open()` in progress settles); later `open()` calls are refused.
 */
export function pluginLifecycle(
  order: readonly AnyPlugin[],
  context: (plugin: AnyPlugin, signal: AbortSignal) => PluginStartContext,
  stopContext: PluginStopContext,
  report: (error: PluginError) => void,
): { open(): Promise<void>; close(): Promise<void> } {
  /** Started plugins, in the order they started. */
  const started: AnyPlugin[] = [];
  let controller: AbortController | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;

  const stopStarted = async () => {
    controller?.abort();
    for (let plugin = started.pop(); plugin; plugin = started.pop()) {
      try {
        await plugin.stop?.(stopContext);
      } catch (error) {
        report(new PluginError(plugin.id, error, 'stop'));
      }
    }
  };
  const start = async () => {
    // A signal of its own: after a start that failed (and aborted the last one), open() may be retried.
    controller = new AbortController();
    const { signal } = controller;
    for (const plugin of order) {
      if (closed) return; // close() was called meanwhile: it stops what started
      try {
        await plugin.start?.(context(plugin, signal));
      } catch (error) {
        await stopStarted();
        throw new PluginError(plugin.id, error, 'start');
      }
      started.push(plugin);
    }
  };
  return {
    open() {
      if (closed) return Promise.reject(new ConflictError('The platform is closed; create a new one.'));
      opening ??= start().catch((error: unknown) => {
        opening = undefined; // everything was stopped again: open() may be retried
        throw error;
      });
      return opening;
    },
    async close() {
      closed = true;
      await opening?.catch(() => {});
      await stopStarted();
    },
  };
}
