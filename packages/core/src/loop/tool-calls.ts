import { z } from 'zod';
import { errorMessage } from '../errors.ts';
import type { PromptOutputToolResult, ToolErrorCode, ToolErrorInfo, ToolOutput } from '../model/outputs.ts';
import type { ToolInputBase } from '../plugins/define-plugin.ts';
import { immutableJson } from '../store/frozen.ts';
import type { ToolInput } from '../tools/create-tool.ts';
import { callWrites } from './call-writes.ts';
import type { OfferedTool, Round } from './prepare-round.ts';

export const toolError = (code: ToolErrorCode, message: string): PromptOutputToolResult => ({
  type: 'error',
  error: { code, message } satisfies ToolErrorInfo,
});

/** The model's argument text as JSON; what cannot be parsed is kept as text for the record. */
export function parseArguments(text: string): Pick<ToolOutput, 'input' | 'arguments'> {
  if (text.trim() === '') return { input: {} };
  try {
    return { input: JSON.parse(text) };
  } catch {
    return { input: undefined, arguments: text };
  }
}

export type Decision =
  | { kind: 'error'; result: PromptOutputToolResult; input: unknown }
  | { kind: 'pending'; reason: string; input: unknown; offered: OfferedTool }
  | { kind: 'invoke'; input: unknown; offered: OfferedTool };

/**
 * Validation before anything runs: the tool must be offered this round, its arguments must parse and
 * match its schema, and `requireApproval` decides whether it may run now. If that check throws, the call
 * needs approval: failing closed is the safe side.
 */
export async function decide(
  call: ToolOutput,
  round: Round,
  context: { userId: string; stateOf: (offered: OfferedTool) => unknown },
): Promise<Decision> {
  const offered = round.tools.get(call.toolId);
  if (!offered) {
    const available = [...round.tools.keys()].join(', ') || 'none';
    return {
      kind: 'error',
      input: call.input,
      result: toolError(
        'unknown_tool',
        `There is no tool '${call.toolId}' in this round. Available tools: ${available}.`,
      ),
    };
  }
  if (call.arguments !== undefined) {
    return {
      kind: 'error',
      input: call.input,
      result: toolError(
        'invalid_arguments',
        `The arguments are not valid JSON: ${call.arguments.slice(0, 200)}`,
      ),
    };
  }
  const parsed = offered.tool.input.safeParse(call.input);
  if (!parsed.success) {
    return {
      kind: 'error',
      input: call.input,
      result: toolError(
        'invalid_arguments',
        `The arguments do not match the schema of '${call.toolId}':\n${z.prettifyError(parsed.error)}`,
      ),
    };
  }
  const input = parsed.data;
  const { requireApproval } = offered.tool;
  if (!requireApproval) return { kind: 'invoke', input, offered };
  const defaultReason = `'${call.toolId}' needs your approval before it runs.`;
  try {
    const requirement =
      typeof requireApproval === 'function'
        ? await requireApproval({ input, userId: context.userId, state: context.stateOf(offered) })
        : requireApproval;
    return requirement.required
      ? { kind: 'pending', reason: requirement.reason || defaultReason, input, offered }
      : { kind: 'invoke', input, offered };
  } catch (error) {
    return {
      kind: 'pending',
      reason: `${defaultReason} (The approval check failed: ${errorMessage(error)})`,
      input,
      offered,
    };
  }
}

/** A tool's return value as stored: it must survive JSON, since the record is persisted as JSON. */
function storable(value: unknown): PromptOutputToolResult {
  if (value === undefined) return { type: 'success', output: null };
  try {
    // Made frozen, so the record takes it as it is instead of copying it again.
    return { type: 'success', output: immutableJson(value) };
  } catch (error) {
    return toolError(
      'tool_failed',
      `The tool returned a value that cannot be stored as JSON: ${errorMessage(error)}`,
    );
  }
}

/** Longest delay `setTimeout` takes as it is (longer ones fire at once). */
const MAX_DELAY = 2 ** 31 - 1;

type Watched = { at: number; onTimeout: () => void; onAbort: () => void };

/**
 * Stops the tool calls of one run: each when it outlives its timeout, all of them when the run is aborted.
 * One timer for the run (set for the earliest deadline) rather than a timer and an abort listener per call.
 */
export class CallWatch {
  readonly #calls = new Set<Watched>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /** Watches one call until the returned function is called. */
  watch(timeoutMs: number, onTimeout: () => void, onAbort: () => void): () => void {
    const call = { at: Date.now() + timeoutMs, onTimeout, onAbort };
    this.#calls.add(call);
    if (call.at < this.#timerAt) this.#schedule(call.at);
    return () => this.#calls.delete(call);
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

/**
 * Runs one tool with its timeout. Resolves with a result whatever happens: the tool's value, its error, a
 * timeout, or the prompt's abort (the tool's own `signal` is aborted in the last two cases).
 */
export async function invokeTool(
  offered: OfferedTool,
  base: Omit<ToolInputBase, 'signal'>,
  extensions: (base: ToolInputBase) => object,
  options: {
    timeoutMs: number;
    signal: AbortSignal;
    watch: CallWatch;
    abortedResult: () => PromptOutputToolResult;
  },
): Promise<PromptOutputToolResult> {
  if (options.signal.aborted) return options.abortedResult();
  const controller = new AbortController();
  const writes = callWrites(base, offered.tool.id);
  let unwatch: (() => void) | undefined;
  const stopped = new Promise<PromptOutputToolResult>((resolve) => {
    unwatch = options.watch.watch(
      options.timeoutMs,
      () => {
        controller.abort(new Error('timeout'));
        resolve(
          toolError('timeout', `The tool did not finish within ${options.timeoutMs} ms and was stopped.`),
        );
      },
      () => {
        controller.abort(options.signal.reason);
        resolve(options.abortedResult());
      },
    );
  });
  try {
    const run = (async () => {
      const input = { ...writes.base, signal: controller.signal };
      const toolInput = { ...input, ...extensions(input) } as ToolInput<unknown>;
      return storable(await offered.tool.invoke(toolInput as never));
    })().catch((error: unknown) => toolError('tool_failed', errorMessage(error)));
    return await Promise.race([run, stopped]);
  } finally {
    writes.close(); // the call has its result: a tool still running writes nothing more
    unwatch?.();
  }
}
