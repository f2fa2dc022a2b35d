import { ConflictError, PluginError } from '../errors.ts';
import type { AnyPlugin, PluginStartContext, PluginStopContext } from '../plugins/define-plugin.ts';

/**
 * Starts the plugins' background work once, in dependency order, and stops it in reverse order. A start that
 * throws stops the plugins already started; a stop that throws is reported and the others still stop.
 */
export class PluginLifecycle {
  readonly #order: readonly AnyPlugin[];
  readonly #context: (plugin: AnyPlugin, signal: AbortSignal) => PluginStartContext;
  readonly #stopContext: PluginStopContext;
  readonly #report: (error: PluginError) => void;
  /** Started plugins, in the order they started. */
  readonly #started: AnyPlugin[] = [];
  #opening: Promise<void> | undefined;
  #controller: AbortController | undefined;
  #closed = false;

  constructor(
    order: readonly AnyPlugin[],
    context: (plugin: AnyPlugin, signal: AbortSignal) => PluginStartContext,
    stopContext: PluginStopContext,
    report: (error: PluginError) => void,
  ) {
    this.#order = order;
    this.#context = context;
    this.#stopContext = stopContext;
    this.#report = report;
  }

  open(): Promise<void> {
    if (this.#closed) return Promise.reject(new ConflictError('The platform is closed; create a new one.'));
    this.#opening ??= this.#start().catch((error: unknown) => {
      this.#opening = undefined; // everything was stopped again: open() may be retried
      throw error;
    });
    return this.#opening;
  }

  /** Stops what was started (after an `open()` in progress settles); later `open()` calls are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#opening?.catch(() => {});
    await this.#stopStarted();
  }

  async #start(): Promise<void> {
    const controller = new AbortController();
    this.#controller = controller;
    for (const plugin of this.#order) {
      if (this.#closed) return; // close() was called meanwhile: it stops what started
      try {
        await plugin.start?.(this.#context(plugin, controller.signal));
      } catch (error) {
        await this.#stopStarted();
        throw new PluginError(plugin.id, error, 'start');
      }
      this.#started.push(plugin);
    }
  }

  async #stopStarted(): Promise<void> {
    this.#controller?.abort();
    for (let plugin = this.#started.pop(); plugin; plugin = this.#started.pop()) {
      try {
        await plugin.stop?.(this.#stopContext);
      } catch (error) {
        this.#report(new PluginError(plugin.id, error, 'stop'));
      }
    }
  }
}
