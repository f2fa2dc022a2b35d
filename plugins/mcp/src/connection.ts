import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ErrorCode,
  type Implementation,
  McpError,
  type Prompt,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CONTEXT_ORDER, type ContextItem, errorMessage, type ToolInput } from '@tessera/core';
import { ContentWriter, fileSinkOf } from './content.ts';
import { McpServerUnavailableError, McpToolError } from './errors.ts';
import { listAll } from './lists.ts';
import type { McpSettings, ServerSettings } from './options.ts';
import { progressReporter } from './progress.ts';
import { ServerTools } from './server-tools.ts';
import type { ConnectionState, McpServerStatus } from './status.ts';
import {
  configuredKind,
  type OpenClient,
  openClient,
  StderrTail,
  type TransportKind,
  targetOf,
} from './transports.ts';

export type Timing = Pick<
  McpSettings,
  'connectTimeoutMs' | 'reconnectDelayMs' | 'maxReconnectDelayMs' | 'healthCheckMs'
>;

/** Longest delay a timer takes; calls are bounded by the tool's timeout (core aborts their signal), not the SDK's. */
const NO_TIMEOUT = 2 ** 31 - 1;
/** How long a call waits for its server to come back before it fails. */
const CALL_WAIT_MS = 5_000;
/** How long `prepare()` waits for a list the server said (or may have) changed; then it offers the last one. */
const LIST_WAIT_MS = 5_000;
const PING_TIMEOUT_MS = 5_000;
/** A connection that lived this long starts the next backoff from the first delay again. */
const STABLE_MS = 10_000;
const MAX_INSTRUCTIONS = 2_000;

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A file name base for what a tool returns: `everything.get-tiny-image` → `get-tiny-image`. */
const fileBase = (id: string) => id.slice(id.indexOf('.') + 1) || 'mcp';

/**
 * One MCP server: connects it, keeps its tools and prompts up to date (`list_changed`), reconnects it with
 * backoff when it dies or cannot be reached (a stdio process that exits; an HTTP server whose stream drops or
 * that stops answering pings), and closes it on stop.
 */
export class McpConnection {
  readonly name: string;
  readonly settings: ServerSettings;
  readonly tools: ServerTools;
  /** Changes whenever what the plugin offers of this server may have changed. */
  version = 0;
  readonly #timing: Timing;
  #state: ConnectionState = 'connecting';
  #client: Client | undefined;
  #kind: TransportKind;
  #pid: number | undefined;
  #error: string | undefined;
  #failures = 0;
  #everConnected = false;
  #connectedAt: number | undefined;
  #nextAttemptAt: number | undefined;
  #retry: NodeJS.Timeout | undefined;
  #health: NodeJS.Timeout | undefined;
  #attempt: { abort: AbortController; done: Promise<void> } | undefined;
  readonly #stderr = new StderrTail();
  #server: Implementation | undefined;
  #instructions: ContextItem | undefined;
  #prompts: readonly Prompt[] = [];
  #resources = false;
  #dirty = { tools: false, prompts: false };
  /** A call ended since the tools were last listed, on a server whose list may change with it: see #called. */
  #toolsStale = false;
  #refreshing: Promise<void> | undefined;
  #slowReported: Promise<void> | undefined;
  /** Reports what the app's operator should hear of (a list the server did not give); the platform's. */
  #report: (error: unknown) => void = () => {};
  #verifying = false;
  readonly #waiters = new Set<() => void>();

  constructor(name: string, settings: ServerSettings, timing: Timing) {
    this.name = name;
    this.settings = settings;
    this.#timing = timing;
    this.#kind = configuredKind(settings);
    this.tools = new ServerTools(name, settings, (tool, id, input) => this.callTool(tool, id, input));
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Whether its tools are offered: connected, or being reconnected after it was (calls then wait a moment). */
  get offered(): boolean {
    return this.#state === 'connected' || (this.#state === 'reconnecting' && this.#everConnected);
  }

  get client(): Client | undefined {
    return this.#state === 'connected' ? this.#client : undefined;
  }

  get prompts(): readonly Prompt[] {
    return this.offered ? this.#prompts : [];
  }

  get hasResources(): boolean {
    return this.offered && this.#resources;
  }

  /** The server's instructions, for the model's context (when the settings allow). */
  get instructions(): ContextItem | undefined {
    return this.offered ? this.#instructions : undefined;
  }

  /**
   * Connects, resolving after the first attempt, whatever its outcome (a failure is retried in the background).
   * `report` hears of background failures that leave the model offered an old list.
   */
  async start(report?: (error: unknown) => void): Promise<void> {
    if (report) this.#report = report;
    if (!this.settings.enabled) {
      this.#state = 'disabled';
      return;
    }
    await this.#connect();
  }

  async stop(): Promise<void> {
    if (this.#state !== 'disabled') this.#state = 'stopped';
    clearTimeout(this.#retry);
    clearInterval(this.#health);
    const attempt = this.#attempt;
    attempt?.abort.abort(new Error('The app is closing.'));
    const client = this.#client;
    this.#client = undefined;
    this.#wake();
    this.version += 1;
    await Promise.all([attempt?.done, client?.close().catch(() => {})]);
  }

  /** Drops the connection (if any) and connects again now. */
  async reconnect(): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'disabled') return;
    if (this.#attempt) return this.#attempt.done;
    clearTimeout(this.#retry);
    clearInterval(this.#health);
    const client = this.#client;
    this.#client = undefined;
    this.#state = 'reconnecting';
    this.#failures = 0;
    await client?.close().catch(() => {});
    await this.#connect();
  }

  /**
   * Waits (a little) for lists the server said changed, or that a call may have changed (#called), so the next
   * round offers what it has now; past LIST_WAIT_MS the round offers the last list, and the operator hears why.
   */
  async settled(signal: AbortSignal): Promise<void> {
    if (this.#toolsStale && this.#client && this.#state === 'connected') {
      this.#dirty.tools = true; // a listing under way started before the call ended: #drain lists once more
      this.#refreshing ??= this.#drain(this.#client);
    }
    const refreshing = this.#refreshing;
    if (!refreshing) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const late = await Promise.race([
      refreshing.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), LIST_WAIT_MS);
        onAbort = () => resolve(false);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (late && this.#slowReported !== refreshing) {
      this.#slowReported = refreshing; // once a listing, not every round it keeps going
      this.#report(
        new Error(
          `The MCP server '${this.name}' did not list its changed tools or prompts within ${LIST_WAIT_MS / 1000} s; the model is offered its last lists until it does.`,
        ),
      );
    }
  }

  status(): McpServerStatus {
    const { current } = this.tools;
    const server = this.#server;
    return {
      name: this.name,
      state: this.#state,
      transport: this.#kind,
      target: targetOf(this.settings),
      ...(server && {
        server: { name: server.name, version: server.version, ...(server.title && { title: server.title }) },
      }),
      ...(this.#error !== undefined && { error: this.#error }),
      ...(this.#state === 'connected' && { connectedAt: iso(this.#connectedAt) }),
      ...(this.#state === 'reconnecting' &&
        this.#nextAttemptAt && { nextAttemptAt: iso(this.#nextAttemptAt) }),
      failures: this.#failures,
      ...(this.#state === 'connected' && this.#pid !== undefined && { pid: this.#pid }),
      tools: this.#everConnected ? [...current.infos] : [],
      skippedTools: [...current.skipped],
      resources: this.#resources,
      prompts: this.#prompts.map(({ name, description }) => ({ name, ...(description && { description }) })),
    };
  }

  /** Calls one of the server's tools for a Tessera tool: the text the model reads, or a throw it reads. */
  async callTool(name: string, id: string, input: ToolInput<Record<string, unknown>>): Promise<string> {
    const client = await this.ready(input.signal);
    const progress = progressReporter(input, { server: this.name, tool: id });
    let result: CallToolResult;
    try {
      result = (await client.callTool({ name, arguments: input.input }, undefined, {
        signal: input.signal,
        timeout: NO_TIMEOUT,
        onprogress: progress.report,
      })) as CallToolResult;
    } catch (error) {
      throw this.#callError(client, error, input.signal);
    } finally {
      await progress.finish();
      this.#called(client);
    }
    const content = Array.isArray(result.content) ? result.content : [];
    let text = await new ContentWriter(fileSinkOf(input), fileBase(id)).blocks(content);
    if (text === '' && result.structuredContent !== undefined)
      text = JSON.stringify(result.structuredContent);
    if (text === '' && 'toolResult' in result) text = JSON.stringify(result.toolResult); // protocol 2024-10-07
    if (result.isError) throw new McpToolError(text || `'${id}' failed without saying why.`);
    return text || `'${id}' returned nothing.`;
  }

  /**
   * After a call to a Streamable HTTP server that declares `tools.listChanged`, the next round lists its tools
   * again. Its `notifications/tools/list_changed` travels apart from the call's result (on the GET stream,
   * which a server need not offer, or a gateway may drop), so it may land after the next round is prepared,
   * or never; a wait for it cannot tell "late" from "not coming", and `tools/list` answers the question in
   * one round trip. Stdio and SSE carry both on one ordered stream, where a notification sent as the call's
   * effect comes before its result, so `#invalidate` has already started the listing: nothing more is asked
   * of them. At most one listing a round (`settled`), none if a notification's listing began after the call
   * (`#drain`).
   */
  #called(client: Client) {
    if (client !== this.#client || this.#kind !== 'streamable-http') return;
    if (client.getServerCapabilities()?.tools?.listChanged) this.#toolsStale = true;
  }

  /** The connected client, waiting a little for a server being (re)connected. */
  async ready(signal: AbortSignal): Promise<Client> {
    if (this.#state === 'connecting' || this.#state === 'reconnecting') await this.#waitConnected(signal);
    signal.throwIfAborted();
    if (this.#state === 'connected' && this.#client) return this.#client;
    throw new McpServerUnavailableError(this.#unavailable());
  }

  #unavailable(): string {
    const why = this.#error ? `: ${this.#error}` : '';
    if (this.#state === 'stopped') return `The MCP server '${this.name}' is stopped: the app is closing.`;
    if (this.#state === 'disabled') return `The MCP server '${this.name}' is disabled in the app's settings.`;
    const next = this.#nextAttemptAt
      ? ` It is tried again in ${Math.max(1, Math.round((this.#nextAttemptAt - Date.now()) / 1000))} s.`
      : '';
    return `The MCP server '${this.name}' is not connected${why}.${next} Tell the user, or try again later.`;
  }

  #waitConnected(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, CALL_WAIT_MS);
      signal.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }

  #wake() {
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** What a failed call tells the model; a failure of the connection itself also starts a check of it. */
  #callError(client: Client, error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) return error;
    if (error instanceof McpError) {
      if (error.code === ErrorCode.ConnectionClosed) {
        return new McpServerUnavailableError(
          `The MCP server '${this.name}' went away during the call, which may or may not have taken effect; it is being reconnected.`,
          { cause: error },
        );
      }
      return new McpToolError(`The MCP server '${this.name}' refused the call: ${error.message}`, {
        cause: error,
      });
    }
    this.#verify(client);
    return new McpServerUnavailableError(
      `The MCP server '${this.name}' could not be reached (${errorMessage(error)}); the call may not have run.`,
      { cause: error },
    );
  }

  #connect(): Promise<void> {
    const abort = new AbortController();
    this.#state = this.#everConnected || this.#failures > 0 ? 'reconnecting' : 'connecting';
    this.#nextAttemptAt = undefined;
    const done = (async () => {
      let opened: OpenClient | undefined;
      try {
        opened = await openClient(this.settings, {
          timeoutMs: this.#timing.connectTimeoutMs,
          signal: abort.signal,
          stderr: this.#stderr,
        });
        this.#wire(opened.client);
        await this.#load(opened.client, abort.signal);
        abort.signal.throwIfAborted();
        this.#connected(opened);
      } catch (error) {
        this.#client = undefined;
        await opened?.client.close().catch(() => {});
        if (this.#state !== 'stopped') this.#failed(error);
      }
    })();
    this.#attempt = { abort, done };
    return done.finally(() => {
      if (this.#attempt?.done === done) this.#attempt = undefined;
    });
  }

  #wire(client: Client) {
    this.#client = client; // not offered before #connected: the state says `connecting`
    client.onclose = () => this.#lost(client, new Error(this.#exitMessage()));
    client.onerror = () => this.#verify(client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () =>
      this.#invalidate(client, 'tools'),
    );
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () =>
      this.#invalidate(client, 'prompts'),
    );
  }

  /** The server's tools and prompts, every page, and what it said of itself when it connected. */
  async #load(client: Client, signal: AbortSignal) {
    const capabilities = client.getServerCapabilities() ?? {};
    const options = { timeout: this.#timing.connectTimeoutMs, signal };
    this.#dirty = { tools: false, prompts: false };
    this.#toolsStale = false;
    const [tools, prompts] = await Promise.all([
      capabilities.tools ? this.#listTools(client, options) : [],
      capabilities.prompts ? this.#listPrompts(client, options) : [],
    ]);
    this.tools.update(tools);
    this.#prompts = prompts;
    this.#resources = capabilities.resources !== undefined;
    this.#server = client.getServerVersion();
    const instructions = client.getInstructions()?.trim();
    this.#instructions =
      instructions && this.settings.instructions
        ? {
            text: `The MCP server '${this.name}' (its tools are named ${this.name}.*) says:\n${instructions.slice(0, MAX_INSTRUCTIONS)}`,
            order: CONTEXT_ORDER.stable,
          }
        : undefined;
  }

  #listTools(client: Client, options: { timeout: number; signal?: AbortSignal }) {
    return listAll(async (cursor) => {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  #listPrompts(client: Client, options: { timeout: number; signal?: AbortSignal }) {
    return listAll(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  #connected(opened: OpenClient) {
    this.#client = opened.client;
    this.#kind = opened.kind;
    this.#pid = opened.pid;
    this.#state = 'connected';
    this.#everConnected = true;
    this.#error = undefined;
    this.#connectedAt = Date.now();
    this.version += 1;
    if (opened.kind !== 'stdio' && this.#timing.healthCheckMs > 0) {
      this.#health = setInterval(() => this.#verify(opened.client), this.#timing.healthCheckMs);
      this.#health.unref();
    }
    this.#wake();
    if (this.#dirty.tools || this.#dirty.prompts) this.#refreshing ??= this.#drain(opened.client);
  }

  #failed(error: unknown) {
    this.#error = this.#describe(error);
    this.#state = 'reconnecting';
    this.version += 1;
    this.#scheduleRetry();
    this.#wake();
  }

  /** The connection of `client` is gone (process exited, stream lost, pings unanswered): reconnect. */
  #lost(client: Client, error: unknown) {
    if (client !== this.#client || this.#state !== 'connected') return;
    if (Date.now() - (this.#connectedAt ?? 0) >= STABLE_MS) this.#failures = 0;
    this.#client = undefined;
    clearInterval(this.#health);
    void client.close().catch(() => {});
    this.#failed(error);
  }

  #scheduleRetry() {
    this.#failures += 1;
    const { reconnectDelayMs, maxReconnectDelayMs } = this.#timing;
    const base = Math.min(maxReconnectDelayMs, reconnectDelayMs * 2 ** (this.#failures - 1));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4)); // spread, so servers do not retry in step
    this.#nextAttemptAt = Date.now() + delay;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect();
    }, delay);
    this.#retry.unref();
  }

  /** Pings the server after a transport error (or on the health timer); no answer means it is gone. */
  #verify(client: Client) {
    if (this.#verifying || client !== this.#client || this.#state !== 'connected') return;
    this.#verifying = true;
    client
      .ping({ timeout: PING_TIMEOUT_MS })
      .catch((error: unknown) => this.#lost(client, error))
      .finally(() => {
        this.#verifying = false;
      });
  }

  #invalidate(client: Client, list: 'tools' | 'prompts') {
    if (client !== this.#client) return;
    this.#dirty[list] = true;
    if (this.#state === 'connected') this.#refreshing ??= this.#drain(client);
  }

  /** Lists again what the server said changed, until nothing is left to list (changes during a listing too). */
  async #drain(client: Client): Promise<void> {
    const options = { timeout: this.#timing.connectTimeoutMs };
    try {
      while ((this.#dirty.tools || this.#dirty.prompts) && client === this.#client) {
        const dirty = this.#dirty;
        this.#dirty = { tools: false, prompts: false };
        if (dirty.tools) this.#toolsStale = false; // this listing sees what every call so far did
        const [tools, prompts] = await Promise.all([
          dirty.tools ? this.#listTools(client, options) : undefined,
          dirty.prompts ? this.#listPrompts(client, options) : undefined,
        ]);
        if (client !== this.#client) return;
        if (tools) this.tools.update(tools);
        if (prompts) this.#prompts = prompts;
        this.version += 1;
      }
    } catch (error) {
      this.#verify(client); // the lists stay as they were; a dead server is found and reconnected
      if (client !== this.#client || this.#state !== 'connected') return; // gone: its status says so
      this.#report(
        new Error(
          `The MCP server '${this.name}' could not list its changed tools or prompts (${errorMessage(error)}); the model is offered its last lists.`,
          { cause: error },
        ),
      );
    } finally {
      this.#refreshing = undefined;
    }
  }

  #exitMessage(): string {
    const said = this.#stderr.lastLine();
    const what = this.#kind === 'stdio' ? 'The server process exited' : 'The connection closed';
    return said ? `${what}; it last said: ${said}` : what;
  }

  #describe(error: unknown): string {
    const message = errorMessage(error);
    const said = this.#kind === 'stdio' ? this.#stderr.lastLine() : undefined;
    return said && !message.includes(said) ? `${message} (the server last said: ${said})` : message;
  }
}
