import type { PauseOutput, Prompt, PromptOutput, PromptUsage, TesseraEvent, ToolOutput } from '@tessera/core';
import type { FinishReason, UIMessageChunk } from 'ai';
import { usageSince } from '../openai-compat/turn.ts';

/**
 * A Tessera prompt as the AI SDK's UI message chunks (the protocol `useChat` reads), from its events as they
 * come and, at the end, from the prompt as stored. What each output becomes:
 *
 * - text: `text-start`, its deltas as the model streams them, `text-end` once it is recorded;
 * - reasoning: a `reasoning-*` part of its summary (or text);
 * - a tool call: a dynamic tool part (the app's tools are the server's, unknown to the client's types), its
 *   id both `toolCallId` and `approvalId`: `tool-input-available`, then `tool-approval-request` while it
 *   waits, then `tool-output-available`, `tool-output-error`, or `tool-output-denied` when it was rejected;
 * - a pause (a budget reached, a plugin's): the dynamic tool `tessera.pause`, approved to continue, denied to
 *   stop;
 * - a file: a `file` part, a link to its download;
 * - any other output (a widget, a plugin's variant): a `data-<type>` part with the output, sent again by its
 *   id when it changes (the client replaces it in place).
 *
 * Each output is sent once per stage whatever number of events tell it, so the final sync never repeats.
 */

/** What the client has of an output: a text still streaming, a call (or pause) shown or waiting, or all of it. */
type Stage = 'streaming' | 'input' | 'approval' | 'done';

/** The dynamic tool a pause is shown as. */
export const PAUSE_TOOL = 'tessera.pause';

/** Where the client's links point: the server as the client reached it. */
export type Links = { origin: string; conversationId: string };

export type ChunkMetadata = {
  conversationId: string;
  promptId: string;
  /** On `finish` only: the prompt's state then (`waiting_for_approval`: a call or pause asks for a decision). */
  state?: Prompt['state'];
  /** On `finish` only: the tokens this response's model calls used. */
  usage?: ReturnType<typeof usageSince>;
};

export class PromptChunks {
  readonly #links: Links;
  readonly #stages = new Map<string, Stage>();
  /** The data parts as last sent (JSON), so that an unchanged one is not sent again. */
  readonly #sentData = new Map<string, string>();

  /** `known`: the outputs the client already has (a prompt resumed by its decision). */
  constructor(links: Links, known: readonly PromptOutput[]) {
    this.#links = links;
    for (const output of known) {
      this.#stages.set(output.id, knownStage(output));
      if (isDataOutput(output)) this.#sentData.set(output.id, JSON.stringify(output));
    }
  }

  /** The chunks an event of the prompt adds. */
  event(event: TesseraEvent): UIMessageChunk[] {
    if (event.type === 'prompt.text-delta') return this.#delta(event.outputId, event.delta);
    if (event.type === 'prompt.output' || event.type === 'prompt.output-updated')
      return this.output(event.output);
    return [];
  }

  /** The chunks that bring the client up to date with an output. */
  output(output: PromptOutput): UIMessageChunk[] {
    switch (output.type) {
      case 'text':
        return this.#text(output.id, output.text);
      case 'reasoning':
        return this.#reasoning(output.id, output.summary ?? output.text ?? '');
      case 'tool':
        return this.#call(output);
      case 'pause':
        return this.#pause(output);
      case 'steering': // the user's own message: the client shows it already
        return [];
      case 'file':
        return this.#once(output.id, () => [
          { type: 'file', url: this.#fileUrl(output.fileId), mediaType: output.mediaType },
        ]);
      default:
        return this.#data(output);
    }
  }

  /**
   * The last chunks, once the prompt's loop stopped: anything its events did not bring (the record is the
   * truth), text left open closed, the failure, and `finish` with the state and usage as metadata.
   */
  end(prompt: Prompt, usageBefore: PromptUsage | undefined): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = prompt.output.flatMap((output) => this.output(output));
    for (const [id, stage] of this.#stages)
      if (stage === 'streaming') {
        this.#stages.set(id, 'done');
        chunks.push({ type: 'text-end', id });
      }
    if (prompt.state === 'failed')
      chunks.push({ type: 'error', errorText: prompt.stopReason?.message ?? 'The prompt failed.' });
    const usage = usageSince(prompt.usage, usageBefore);
    const metadata: ChunkMetadata = {
      conversationId: prompt.conversationId,
      promptId: prompt.id,
      state: prompt.state,
      ...(usage && { usage }),
    };
    chunks.push({ type: 'finish', finishReason: finishReasonOf(prompt), messageMetadata: metadata });
    return chunks;
  }

  #delta(id: string, delta: string): UIMessageChunk[] {
    const stage = this.#stages.get(id);
    if (stage === 'done') return [];
    const chunks: UIMessageChunk[] = [];
    if (stage === undefined) {
      this.#stages.set(id, 'streaming');
      chunks.push({ type: 'text-start', id });
    }
    chunks.push({ type: 'text-delta', id, delta });
    return chunks;
  }

  /** Recorded text: ends what streamed, or is sent whole when it did not stream (a plugin's answer). */
  #text(id: string, text: string): UIMessageChunk[] {
    const stage = this.#stages.get(id);
    if (stage === 'done') return [];
    this.#stages.set(id, 'done');
    if (stage === 'streaming') return [{ type: 'text-end', id }];
    return [
      { type: 'text-start', id },
      { type: 'text-delta', id, delta: text },
      { type: 'text-end', id },
    ];
  }

  #reasoning(id: string, text: string): UIMessageChunk[] {
    if (!text) return [];
    return this.#once(id, () => [
      { type: 'reasoning-start', id },
      { type: 'reasoning-delta', id, delta: text },
      { type: 'reasoning-end', id },
    ]);
  }

  #call(call: ToolOutput): UIMessageChunk[] {
    const { result } = call;
    const input = call.editedInput ?? call.input;
    return this.#steps(call.id, call.toolId, input, {
      waiting: result?.type === 'pending' ? result.reason : undefined,
      ended:
        result === undefined || result.type === 'pending'
          ? undefined
          : result.type === 'success'
            ? { type: 'tool-output-available', toolCallId: call.id, output: result.output, dynamic: true }
            : errorCode(result.error) === 'rejected'
              ? { type: 'tool-output-denied', toolCallId: call.id }
              : {
                  type: 'tool-output-error',
                  toolCallId: call.id,
                  errorText: errorText(result.error),
                  dynamic: true,
                },
    });
  }

  #pause(pause: PauseOutput): UIMessageChunk[] {
    const { id, reason, source, budget, decision } = pause;
    return this.#steps(
      id,
      PAUSE_TOOL,
      { reason, source, ...(budget && { budget }) },
      {
        waiting: decision === undefined ? reason : undefined,
        ended:
          decision === undefined
            ? undefined
            : decision === 'stop'
              ? { type: 'tool-output-denied', toolCallId: id }
              : {
                  type: 'tool-output-available',
                  toolCallId: id,
                  output: { choice: 'continue', ...(pause.raised && { raised: pause.raised }) },
                  dynamic: true,
                },
      },
    );
  }

  /** A tool part's stages, each sent once: shown, waiting for a decision (if it does), ended. */
  #steps(
    id: string,
    toolName: string,
    input: unknown,
    { waiting, ended }: { waiting: string | undefined; ended: UIMessageChunk | undefined },
  ): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    let stage = this.#stages.get(id);
    if (stage === 'done') return chunks;
    if (stage === undefined) {
      chunks.push({ type: 'tool-input-available', toolCallId: id, toolName, input, dynamic: true });
      stage = 'input';
    }
    if (waiting !== undefined && stage === 'input') {
      chunks.push({ type: 'tool-approval-request', approvalId: id, toolCallId: id, reason: waiting });
      stage = 'approval';
    }
    if (ended) {
      chunks.push(ended);
      stage = 'done';
    }
    this.#stages.set(id, stage);
    return chunks;
  }

  /** A data part, sent again whenever the output changed (a widget updated in place). */
  #data(output: PromptOutput): UIMessageChunk[] {
    const json = JSON.stringify(output);
    if (this.#sentData.get(output.id) === json) return [];
    this.#sentData.set(output.id, json);
    this.#stages.set(output.id, 'done');
    return [{ type: `data-${output.type}`, id: output.id, data: output }];
  }

  #once(id: string, chunks: () => UIMessageChunk[]): UIMessageChunk[] {
    if (this.#stages.has(id)) return [];
    this.#stages.set(id, 'done');
    return chunks();
  }

  #fileUrl(fileId: string): string {
    const { origin, conversationId } = this.#links;
    return `${origin}/api/conversations/${encodeURIComponent(conversationId)}/files/${encodeURIComponent(fileId)}`;
  }
}

const CORE_TYPES = new Set(['text', 'reasoning', 'tool', 'pause', 'steering', 'file']);
const isDataOutput = (output: PromptOutput) => !CORE_TYPES.has(output.type);

/** What a client that has `output` already was sent of it. */
function knownStage(output: PromptOutput): Stage {
  if (output.type === 'tool') {
    if (output.result === undefined) return 'input';
    return output.result.type === 'pending' ? 'approval' : 'done';
  }
  if (output.type === 'pause') return output.decision === undefined ? 'approval' : 'done';
  return 'done';
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return JSON.stringify(error) ?? 'The tool failed.';
}

function finishReasonOf(prompt: Prompt): FinishReason {
  if (prompt.state === 'waiting_for_approval') return 'tool-calls';
  if (prompt.state === 'failed') return 'error';
  if (prompt.state === 'cancelled') return 'interrupted';
  const code = prompt.stopReason?.code;
  if (code === 'max_output_tokens') return 'length';
  if (code === 'content_filter') return 'content-filter';
  return 'stop';
}
