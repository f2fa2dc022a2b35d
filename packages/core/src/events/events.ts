import type { Prompt, PromptOutput } from '../model/outputs.ts';
import type { PromptState } from '../model/prompt.ts';

type Scope = { promptId: string; conversationId: string; userId: string };

/** Everything the platform publishes. Each event is scoped to one prompt of one conversation. */
export type TesseraEvent = Scope &
  (
    | { type: 'prompt.started'; prompt: Prompt }
    /** A new entry in the output array. */
    | { type: 'prompt.output'; output: PromptOutput }
    /** An entry changed in place: a tool's result arrived, pending became success/error, a widget updated. */
    | { type: 'prompt.output-updated'; output: PromptOutput }
    /** An entry taken out: what a call emitted before a crash, when the call is run again after it. */
    | { type: 'prompt.output-removed'; outputId: string }
    /** Streamed text of the output that will be recorded with `outputId` once complete. */
    | { type: 'prompt.text-delta'; outputId: string; delta: string }
    | {
        type: 'prompt.approval-requested';
        toolCallId: string;
        toolId: string;
        input: unknown;
        reason: string;
      }
    /** The loop continues after an approval decision or a restart. */
    | { type: 'prompt.resumed'; state: PromptState }
    | { type: 'prompt.completed'; prompt: Prompt }
    /** Ended `failed` or `cancelled`; `prompt.stopReason` says why. */
    | { type: 'prompt.failed'; prompt: Prompt }
  );

export type TesseraEventType = TesseraEvent['type'];
export type EventOf<T extends TesseraEventType> = Extract<TesseraEvent, { type: T }>;

/** Events after which a prompt's loop is no longer running (it ended, or paused for approval). */
export const isLoopEndEvent = (event: TesseraEvent): boolean =>
  event.type === 'prompt.completed' ||
  event.type === 'prompt.failed' ||
  event.type === 'prompt.approval-requested';
