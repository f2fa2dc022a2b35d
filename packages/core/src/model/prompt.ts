import { z } from 'zod';
import { OutputBase, type PromptOutput } from './outputs.ts';

/** `normal` and `high` are model classes; the app maps each to a concrete model name. */
export const ModelClass = z.enum(['normal', 'high']);
export type ModelClass = z.infer<typeof ModelClass>;

/**
 * `running` while the loop works, `waiting_for_approval` while a tool call is pending, and one of the three
 * final states once the loop has ended: a prompt never stays `running` after its loop is gone.
 */
export const PromptState = z.enum(['running', 'waiting_for_approval', 'completed', 'failed', 'cancelled']);
export type PromptState = z.infer<typeof PromptState>;

export const FINAL_PROMPT_STATES: readonly PromptState[] = ['completed', 'failed', 'cancelled'];
export const isFinalState = (state: PromptState): boolean => FINAL_PROMPT_STATES.includes(state);

/** Why a prompt ended other than by a plain text answer: a budget, a model error, a cancellation. */
export const StopReason = z.object({
  code: z.string(),
  message: z.string(),
});
export type StopReason = z.infer<typeof StopReason>;

export const PromptUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** Number of model calls made for this prompt (the rounds). */
  modelCalls: z.number().int().nonnegative(),
  cost: z.number().nonnegative().optional(),
});
export type PromptUsage = z.infer<typeof PromptUsage>;

export const emptyUsage = (): PromptUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
  totalTokens: 0,
  modelCalls: 0,
});

export const PromptSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  userId: z.string(),
  model: ModelClass,
  visible: z.boolean(),
  state: PromptState,
  /** The user's message; absent for prompts the system started (triggers, schedules). */
  input: z.string().optional(),
  /** Everything that happened, in order. Variants are validated by their registered schemas. */
  output: z.array(OutputBase.loose()),
  usage: PromptUsage,
  stopReason: StopReason.optional(),
  /** Free-form facts about the prompt set by whoever started it, e.g. `{ trigger: 'trg_…' }`. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** The stored shape; `PromptOutput` (from the output registry) is the typed view of `output`. */
export type PromptRecord = z.infer<typeof PromptSchema>;

/** A prompt with its outputs typed by the registered variants. */
export type Prompt = Omit<PromptRecord, 'output'> & { output: PromptOutput[] };
