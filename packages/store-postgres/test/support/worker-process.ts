import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerEvent, WorkerReply } from './platform-worker.ts';

const WORKER = fileURLToPath(new URL('./platform-worker.ts', import.meta.url));

export class WorkerError extends Error {
  readonly code: string | undefined;
  constructor(error: { name: string; code?: string; message: string }) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
  }
}

/** A platform in a child process (run by `node` itself, not by vitest), and a typed way to drive it. */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<NodeJS.Signals | number | null>;
  #next = 0;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #events: WorkerEvent[] = [];
  readonly #waiters: { event: WorkerEvent['event']; resolve: () => void }[] = [];

  private constructor(env: Record<string, string>) {
    this.child = fork(WORKER, [], {
      execPath: process.execPath,
      execArgv: ['--disable-warning=ExperimentalWarning'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    this.exited.then(() => {
      for (const { reject } of this.#pending.values()) reject(new Error('The worker process exited.'));
      this.#pending.clear();
    });
    this.child.on('message', (message: WorkerReply | WorkerEvent) => {
      if ('event' in message) {
        this.#events.push(message);
        for (const waiter of this.#waiters.filter((w) => w.event === message.event)) waiter.resolve();
        return;
      }
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new WorkerError(message.error));
    });
  }

  /**
   * Starts a worker on a server database (`{ databaseUrl, schema }`) or a PGlite directory (`{ dataDir }`),
   * with `env` for its platform's options (`TESSERA_RECOVER_EVERY_MS`, `TESSERA_REMOTE_CANCEL_TIMEOUT_MS`) and
   * its store's (`TESSERA_RELAY_HEARTBEAT_MS`, `TESSERA_RELAY_EXPIRY_MS`).
   */
  static async start(
    database: { databaseUrl: string; schema: string } | { dataDir: string },
    env: Record<string, string> = {},
  ): Promise<WorkerProcess> {
    const worker = new WorkerProcess({
      ...env,
      ...('dataDir' in database
        ? { PGLITE_DATA_DIR: database.dataDir }
        : { DATABASE_URL: database.databaseUrl, TESSERA_SCHEMA: database.schema }),
    });
    await Promise.race([
      worker.waitFor('ready'),
      worker.exited.then((code) => {
        throw new Error(`The worker process exited before it was ready (${code}).`);
      }),
    ]);
    return worker;
  }

  /** Resolves when the worker has sent `event` (at once if it already has). */
  waitFor(event: WorkerEvent['event']): Promise<void> {
    if (this.#events.some((e) => e.event === event)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ event, resolve }));
  }

  call<T = unknown>(command: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.#next;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, command, args });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.call('close').catch(() => {});
    await this.exited;
  }
}
