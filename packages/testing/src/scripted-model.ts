import {
  type FinishReason,
  ModelError,
  type ModelMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelUsage,
} from '@tessera/core';

export type ScriptedCall = {
  name: string;
  /** Arguments as a value (sent as JSON) ... */
  args?: unknown;
  /** ... or as raw text, to script broken JSON. */
  arguments?: string;
  /** The model's call id; generated when left out. */
  id?: string;
};

export type ScriptedReply = {
  /** The answer's text; an array is streamed as those chunks. */
  text?: string | string[];
  toolCalls?: readonly ScriptedCall[];
  /**
   * Stream events as a provider would send them, in this order, after the text and calls above and before
   * the usage and finish: reasoning, refusals, text after calls, whatever order a real model streams.
   */
  events?: readonly ModelStreamEvent[];
  usage?: Partial<ModelUsage>;
  finish?: FinishReason;
  /** Wait this long (abortably) before answering: the time to the first token. */
  delayMs?: number;
  /** Wait this long (abortably) after the first event, before the rest: the time the answer takes to stream. */
  streamMs?: number;
  /** Fail the call instead of answering (or, with `breakAfter`, halfway through the answer). */
  error?: ModelError | Error | string;
  /**
   * Break the stream after this many of its events (text chunks, calls, `events`, usage, finish), with
   * `error` or else a lost connection, as a real stream can: what came before it was streamed.
   */
  breakAfter?: number;
};

/** One turn of the script: a fixed reply, or a function of what the model was sent. */
export type ScriptedTurn = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * A model that answers from a script, turn by turn, and records every request it was sent, so tests can
 * assert on the messages, instructions and tools the loop produced. Running out of turns is an error.
 */
export class ScriptedModel implements ModelProvider {
  readonly id = 'scripted';
  readonly label: string;
  /** Every request, in order, as the loop sent it. */
  readonly requests: ModelRequest[] = [];
  /** Every tool call the model made, in order, with the call id it used. */
  readonly calls: { callId: string; name: string; arguments: string }[] = [];
  readonly #turns: ScriptedTurn[];
  #callCounter = 0;

  constructor(turns: ScriptedTurn[] = [], options: { label?: string } = {}) {
    this.#turns = [...turns];
    this.label = options.label ?? 'scripted model';
  }

  /** Adds turns at the end of the script. */
  push(...turns: ScriptedTurn[]): this {
    this.#turns.push(...turns);
    return this;
  }

  /**
   * Drops the turns not played yet: a test sharing one model with others starts from an empty script, so a
   * test that failed halfway does not hand its unplayed turns to the next.
   */
  clear(): this {
    this.#turns.length = 0;
    return this;
  }

  get remaining(): number {
    return this.#turns.length;
  }

  get lastRequest(): ModelRequest | undefined {
    return this.requests.at(-1);
  }

  /**
   * The names of the tools offered in one model call: 0 for the first (round 0 of the first prompt), -1
   * (the default) for the last.
   */
  toolsOffered(call = -1): string[] {
    const request = this.requests.at(call);
    if (!request) {
      throw new Error(`The scripted model has no call ${call}: it was called ${this.requests.length} times.`);
    }
    return request.tools.map((tool) => tool.name);
  }

  /**
   * What the model read in one call (-1, the default, for the last; 0 for the first), as text to assert on
   * with `toContain`: its messages, one a line (`user: …`, `assistant: …`, `call <tool> <arguments>`,
   * `result: …`, `reasoning: …`), after its instructions under `instructions:`.
   */
  read(call = -1): string {
    const request = this.requests.at(call);
    if (!request) {
      throw new Error(`The scripted model has no call ${call}: it was called ${this.requests.length} times.`);
    }
    return [`instructions: ${request.instructions}`, ...request.messages.map(messageLine)].join('\n');
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    for await (const batch of this.streamBatches(request, signal)) yield* batch;
  }

  /**
   * The reply in as few batches as it allows: whole, or, with `streamMs`, its first event and then the rest;
   * with `breakAfter`, what came before the break, then the failure.
   */
  async *streamBatches(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent[]> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (!turn) {
      throw new ModelError(`The scripted model has no turn left for call ${this.requests.length}.`, {
        kind: 'bad_request',
      });
    }
    const reply = typeof turn === 'function' ? turn(request) : turn;
    if (reply.delayMs) await sleep(reply.delayMs, signal);
    signal.throwIfAborted();
    const failure = () =>
      typeof reply.error === 'string'
        ? new ModelError(reply.error)
        : (reply.error ??
          new ModelError('The connection was lost.', { kind: 'connection', retryable: true }));
    if (reply.error !== undefined && reply.breakAfter === undefined) throw failure();
    let sent = 0;
    let batch: ModelStreamEvent[] = [];
    for (const event of this.#answer(reply)) {
      if (sent++ === reply.breakAfter) {
        if (batch.length > 0) yield batch;
        throw failure();
      }
      if (event.type === 'tool-call') {
        this.calls.push({ callId: event.callId, name: event.name, arguments: event.arguments });
      }
      batch.push(event);
      if (sent === 1 && reply.streamMs) {
        yield batch;
        batch = [];
        await sleep(reply.streamMs, signal);
      }
    }
    if (batch.length > 0) yield batch;
    if (sent === reply.breakAfter) throw failure();
  }

  /** The events of a reply, in the order they are streamed. */
  *#answer(reply: ScriptedReply): Generator<ModelStreamEvent> {
    const chunks = reply.text === undefined ? [] : Array.isArray(reply.text) ? reply.text : [reply.text];
    for (const delta of chunks) yield { type: 'text-delta', delta };
    for (const scripted of reply.toolCalls ?? []) {
      yield {
        type: 'tool-call',
        callId: scripted.id ?? `call_${++this.#callCounter}`,
        name: scripted.name,
        arguments: scripted.arguments ?? JSON.stringify(scripted.args ?? {}),
      };
    }
    yield* reply.events ?? [];
    const calls = reply.toolCalls?.length || reply.events?.some((event) => event.type === 'tool-call');
    yield {
      type: 'usage',
      usage: { inputTokens: 10, outputTokens: 5, ...reply.usage },
    };
    yield { type: 'finish', reason: reply.finish ?? (calls ? 'tool_calls' : 'stop') };
  }
}

export const scriptedModel = (turns: ScriptedTurn[] = [], options?: { label?: string }): ScriptedModel =>
  new ScriptedModel(turns, options);

/** A turn that answers with text. */
export const reply = (text: string | string[], extra: Omit<ScriptedReply, 'text'> = {}): ScriptedReply => ({
  text,
  ...extra,
});

/** One message as the model read it, on a line. */
function messageLine(message: ModelMessage): string {
  if (message.type === 'message') return `${message.role}: ${message.content}`;
  if (message.type === 'function_call') return `call ${message.name} ${message.arguments}`;
  if (message.type === 'function_call_output') return `result: ${message.output}`;
  return `reasoning: ${message.summary ?? message.text ?? ''}`;
}

/** A turn that calls one tool (or several, as one parallel batch). */
export const callTool = (name: string, args: unknown = {}, id?: string): ScriptedReply => ({
  toolCalls: [{ name, args, ...(id && { id }) }],
});
export const callTools = (...calls: ScriptedCall[]): ScriptedReply => ({ toolCalls: calls });

/**
 * Throws unless the messages are well-formed for the OpenAI APIs: every function call has exactly one
 * output, after it, and every output answers a call made before it.
 */
export function assertWellFormed(messages: readonly ModelMessage[]): void {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.type === 'function_call') {
      if (open.has(message.callId) || answered.has(message.callId)) {
        throw new Error(`Message ${index}: call id ${message.callId} is used twice.`);
      }
      open.add(message.callId);
    } else if (message.type === 'function_call_output') {
      if (!open.delete(message.callId)) {
        throw new Error(`Message ${index}: output for ${message.callId}, which has no open call before it.`);
      }
      answered.add(message.callId);
    }
  }
  if (open.size > 0) throw new Error(`Calls without an output: ${[...open].join(', ')}.`);
}
