import { errorMessage, TesseraError, ToolCallError, type ToolCallErrorCode } from '../errors.ts';
import type { PromptOutputToolResult, ToolOutput } from '../model/outputs.ts';
import { boundText } from '../outputs/bounds.ts';
import type { AnyPlugin, OfferedTool, ToolInputBase } from '../plugins/define-plugin.ts';
import { immutableJson, immutableOf } from '../store/frozen.ts';
import { isCallSuspension } from '../tools/suspend-call.ts';
import { callInput } from './call-writes.ts';
import { toolError } from './tool-result.ts';

/** The codes a `ToolCallError` may give its call (checked: a plugin in JavaScript could throw any). */
const TOOL_CALL_CODES: ReadonlySet<string> = new Set(['tool_failed', 'cancelled', 'timeout']);

/** The code of a call whose tool threw `error`: a `ToolCallError`'s (cancelled, timeout), else tool_failed. */
function codeOf(error: unknown): ToolCallErrorCode {
  try {
    if (ToolCallError.is(error) && TOOL_CALL_CODES.has(error.code)) return error.code;
  } catch {
    // A value that throws when read (a hostile Proxy) is just a failure.
  }
  return 'tool_failed';
}

/** The model's argument text as JSON; what cannot be parsed is kept as text for the record. */
export function parseArguments(text: string): Pick<ToolOutput, 'input' | 'arguments'> {
  if (text.trim() === '') return { input: {} };
  try {
    return { input: JSON.parse(text) };
  } catch {
    return { input: undefined, arguments: text };
  }
}

/**
 * The most characters of a tool's return value (as JSON) the record keeps: a result read from outside (an MCP
 * server's, a fetched page) could otherwise fill the process's memory and the conversation in one call. A
 * longer one is kept as its text with the middle cut out, as the model is sent results (`boundText`).
 */
export const MAX_RESULT_RECORD_CHARS = 2_000_000;

/** Values (strings, numbers, objects…) `jsonChars` looks at before it calls a value too large to measure. */
const MAX_MEASURED_NODES = 100_000;
let nodesLeft = 0;

/**
 * About how long `value` is as JSON (escapes not counted), without making the text: results are measured as
 * they are recorded, and most are small. One with cycles, too many parts, a `toJSON` or more than 100 levels
 * (as `immutableJson` copies) is `Infinity`: then `JSON.stringify` says what is wrong with it, or cuts it.
 */
function jsonChars(value: unknown): number {
  nodesLeft = MAX_MEASURED_NODES;
  return charsOf(value);
}

function charsOf(value: unknown, depth = 0): number {
  if (--nodesLeft < 0 || depth > 100) return Number.POSITIVE_INFINITY;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'boolean':
      return 8;
    case 'object': {
      if (value === null) return 4;
      // What JSON makes of it is `toJSON`'s to say (any length): measured by JSON itself.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return Number.POSITIVE_INFINITY;
      let chars = 2;
      if (Array.isArray(value)) for (const item of value) chars += charsOf(item, depth + 1) + 1;
      // Own enumerable keys, as JSON reads them (an inherited one is not written).
      else
        for (const key of Object.keys(value))
          chars += key.length + 4 + charsOf((value as Record<string, unknown>)[key], depth + 1);
      return chars;
    }
    default:
      return 0;
  }
}

/** A result's length as JSON, about. */
export function resultChars(result: PromptOutputToolResult): number {
  if (result.type === 'success') return jsonChars(result.output);
  return jsonChars(result.type === 'error' ? result.error : result);
}

/**
 * The result a user's answer to a pending call records: the value as JSON keeps it (frozen), within the
 * bound a tool's result is kept to. Unlike a tool's value, one too long or one JSON cannot store is refused
 * (the user can give another), not cut or turned into an error.
 *
 * @throws {TesseraError} `invalid_input` for a value JSON cannot store, or longer than MAX_RESULT_RECORD_CHARS.
 */
export function answeredResult(value: unknown): PromptOutputToolResult {
  const tooLong = () =>
    new TesseraError(
      'invalid_input',
      `The answer is longer than ${MAX_RESULT_RECORD_CHARS.toLocaleString('en')} characters as JSON, the most a tool call's result keeps.`,
    );
  const chars = jsonChars(value);
  if (Number.isFinite(chars) && chars > MAX_RESULT_RECORD_CHARS) throw tooLong();
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TesseraError('invalid_input', `The answer cannot be stored as JSON: ${errorMessage(error)}`);
  }
  if (text === undefined) {
    throw new TesseraError('invalid_input', `The answer cannot be stored as JSON: it is ${typeof value}.`);
  }
  if (text.length > MAX_RESULT_RECORD_CHARS) throw tooLong();
  return immutableOf({ type: 'success', output: immutableJson(value) });
}

/** A tool's return value as stored: it must survive JSON, since the record is persisted as JSON. */
function storable(value: unknown): PromptOutputToolResult {
  if (value === undefined) return { type: 'success', output: null };
  // The call waits for a decision (see suspendCall): ToolBatch records it pending.
  if (isCallSuspension(value)) return { type: 'pending', reason: value.reason };
  try {
    if (jsonChars(value) > MAX_RESULT_RECORD_CHARS) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return { type: 'success', output: boundText(text, MAX_RESULT_RECORD_CHARS) };
    }
    // Made frozen, so the record takes it as it is instead of copying it again.
    return immutableOf({ type: 'success', output: immutableJson(value) });
  } catch (error) {
    return toolError(
      'tool_failed',
      `The tool returned a value that cannot be stored as JSON: ${errorMessage(error)}`,
    );
  }
}

/** Longest delay `setTimeout` takes as it is (longer ones fire at once). */
const MAX_DELAY = 2 ** 31 - 1;

/** A call being watched: its deadline, and how it stops. */
type Watched = { readonly at: number; onTimeout(): void; onAbort(): void };

/**
 * Stops the tool calls of one run: each when it outlives its timeout, all of them when the run is aborted.
 * One timer for the run (set for the earliest deadline) rather than a timer and an abort listener per call.
 */
export class CallWatch {
  readonly #calls = new Set<Watched>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /** Watches one call until `unwatch(call)`. */
  watch(call: Watched): void {
    this.#calls.add(call);
    if (call.at < this.#timerAt) this.#schedule(call.at);
  }

  unwatch(call: Watched): void {
    this.#calls.delete(call);
  }

  /** The run was aborted: every call being watched is stopped. */
  abort(): void {
    for (const call of [...this.#calls]) {
      this.#calls.delete(call);
      call.onAbort();
    }
  }

  /** The run ended: no timer is left behind. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  #schedule(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.min(MAX_DELAY, Math.max(0, at - Date.now())));
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const call of [...this.#calls]) {
      if (call.at <= now) {
        this.#calls.delete(call);
        call.onTimeout();
      } else next = Math.min(next, call.at);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#schedule(next);
  }
}

type InvokeOptions = {
  timeoutMs: number;
  signal: AbortSignal;
  watch: CallWatch;
  abortedResult: () => PromptOutputToolResult;
};

/**
 * One tool call while it runs, settled once by whichever comes first: its value, its error, its timeout or
 * the prompt's abort. One object with methods rather than a closure per way to end (this runs for every call).
 */
class RunningCall implements Watched {
  readonly at: number;
  /** The tool's own signal: aborted on a timeout or the prompt's abort. */
  readonly controller = new AbortController();
  /** The tool's input, with ways to write that close when the call settles. */
  readonly input: ToolInputBase;
  readonly #options: InvokeOptions;
  readonly #resolve: (result: PromptOutputToolResult) => void;
  #done = false;

  constructor(
    base: Omit<ToolInputBase, 'signal'>,
    toolId: string,
    options: InvokeOptions,
    resolve: (result: PromptOutputToolResult) => void,
  ) {
    this.at = Date.now() + options.timeoutMs;
    this.input = callInput(base, toolId, this.controller.signal, () => this.#done);
    this.#options = options;
    this.#resolve = resolve;
  }

  onTimeout(): void {
    this.controller.abort(new Error('timeout'));
    if (!this.#done) {
      const { timeoutMs } = this.#options;
      this.settle(toolError('timeout', `The tool did not finish within ${timeoutMs} ms and was stopped.`));
    }
  }

  onAbort(): void {
    this.controller.abort(this.#options.signal.reason);
    if (!this.#done) this.settle(this.#options.abortedResult());
  }

  returned(value: unknown): void {
    if (!this.#done) this.settle(storable(value));
  }

  failed(error: unknown): void {
    if (this.#done) return;
    this.settle(toolError(codeOf(error), errorMessage(error)));
  }

  settle(result: PromptOutputToolResult): void {
    if (this.#done) return;
    this.#done = true; // the call has its result: a tool still running writes nothing more
    this.#options.watch.unwatch(this);
    this.#resolve(result);
  }
}

/** What plugins add to a tool's input (`toolInput`), merged in plugin order; undefined when none adds anything. */
function toolInputExtensions(plugins: readonly AnyPlugin[], base: ToolInputBase): object | undefined {
  let merged: object | undefined;
  for (const plugin of plugins) {
    const extension = plugin.toolInput?.(base);
    if (extension) merged = Object.assign(merged ?? {}, extension);
  }
  return merged;
}

/**
 * Runs one tool with its timeout. Resolves with a result whatever happens: the tool's value, its error, a
 * timeout, or the prompt's abort (the tool's own `signal` is aborted in the last two cases). Settled by hand
 * rather than with `Promise.race` around an async wrapper: that costs three promises per call.
 */
export function invokeTool(
  offered: OfferedTool,
  base: Omit<ToolInputBase, 'signal'>,
  plugins: readonly AnyPlugin[],
  options: InvokeOptions,
): Promise<PromptOutputToolResult> {
  if (options.signal.aborted) return Promise.resolve(options.abortedResult());
  return new Promise<PromptOutputToolResult>((resolve) => {
    const call = new RunningCall(base, offered.tool.id, options, resolve);
    options.watch.watch(call);
    let running: unknown;
    try {
      const { input } = call;
      const extension = toolInputExtensions(plugins, input);
      running = offered.tool.invoke((extension ? { ...input, ...extension } : input) as never);
    } catch (error) {
      call.failed(error);
      return;
    }
    Promise.resolve(running).then(
      (value) => call.returned(value),
      (error: unknown) => call.failed(error),
    );
  });
}
