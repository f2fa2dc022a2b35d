import type { PromptOutput } from '../model/outputs.ts';
import type { Prompt, PromptState } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';

type Scope = { promptId: string; conversationId: string; userId: string };

/** The scope of a prompt's events (or a message's: `promptId` is its id). */
export const eventScope = (of: { id: string; conversationId: string; userId: string }): Scope => ({
  promptId: of.id,
  conversationId: of.conversationId,
  userId: of.userId,
});

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
        /** The arguments the call runs with once approved: a `beforeToolCall` hook's edit, else the model's. */
        input: unknown;
        reason: string;
      }
    /** The loop continues after an approval decision or a restart. */
    | { type: 'prompt.resumed'; state: PromptState }
    | { type: 'prompt.completed'; prompt: Prompt }
    /** Ended `failed`; `prompt.stopReason` says why (a guardrail, a hook, the model, ...). */
    | { type: 'prompt.failed'; prompt: Prompt }
    /** Ended `cancelled` (by `cancel()`, the run's signal, or a deleted conversation). */
    | { type: 'prompt.cancelled'; prompt: Prompt }
    /** A plugin's hook, guardrail or permission policy threw; what it led to is recorded. */
    | { type: 'prompt.hook-failed'; plugin: string; hook: string; message: string; toolCallId?: string }
    /** A guardrail tripped: the prompt ends at once (`stopReason.code: 'guardrail'`). */
    | { type: 'prompt.guardrail-tripped'; plugin: string; guardrail: 'input' | 'output'; reason: string }
    /**
     * The prompt paused for the user's decision (continue or stop): a plugin, or a budget reached (`budget`:
     * which, its limit and what was used; continue with a larger one). `doom_loop` is a pause recorded before
     * the doom-loop check left core for a plugin, published again when its prompt is resumed.
     */
    | {
        type: 'prompt.pause-requested';
        outputId: string;
        source: 'doom_loop' | 'plugin' | 'budget';
        plugin?: string;
        budget?: { name: string; limit: number; used: number };
        reason: string;
      }
    /** The user decided a pause. */
    | { type: 'prompt.pause-decided'; outputId: string; choice: 'continue' | 'stop'; decidedBy: string }
    /** A steering message reached the prompt (recorded as a `steering` output, read by the model next). */
    | { type: 'prompt.steered'; messageId: string; outputId: string }
    /** A message waits for the conversation (`promptId` is the message's id: a queued one runs as it). */
    | { type: 'message.queued'; message: QueuedMessage }
    /** A waiting message was removed by its user (`promptId` is the message's id). */
    | { type: 'message.removed'; messageId: string }
  );

export type TesseraEventType = TesseraEvent['type'];
export type EventOf<T extends TesseraEventType> = Extract<TesseraEvent, { type: T }>;

/** Events after which a prompt has ended for good: completed, failed or cancelled (never after a pause). */
export const isPromptEndEvent = (event: TesseraEvent): boolean =>
  event.type === 'prompt.completed' || event.type === 'prompt.failed' || event.type === 'prompt.cancelled';

/** Events after which a prompt's loop is no longer running (it ended, or paused for approval). */
export const isLoopEndEvent = (event: TesseraEvent): boolean =>
  isPromptEndEvent(event) ||
  event.type === 'prompt.approval-requested' ||
  event.type === 'prompt.pause-requested';
