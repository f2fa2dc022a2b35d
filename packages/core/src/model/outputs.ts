import { z } from 'zod';

/** The fields every output variant has; each variant's own schema extends this. */
export const OutputBase = z.object({
  type: z.string().min(1),
  id: z.string().min(1),
  createdAt: z.string(),
  /** The tool call this output was emitted by, for outputs that tools emit (widgets, files, ...). */
  toolCallId: z.string().optional(),
});
export type OutputBase = z.infer<typeof OutputBase>;

/** How a tool call ended, or that it waits for a human: the specification's three states. */
export const PromptOutputToolResult = z.discriminatedUnion('type', [
  z.object({ type: z.literal('success'), output: z.unknown() }),
  z.object({ type: z.literal('error'), error: z.unknown() }),
  z.object({ type: z.literal('pending'), reason: z.string() }),
]);
export type PromptOutputToolResult = z.infer<typeof PromptOutputToolResult>;

/** The error value Tessera itself records; `code` says what kind of failure it was. */
export type ToolErrorInfo = { code: ToolErrorCode; message: string };
export type ToolErrorCode =
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'tool_failed'
  | 'timeout'
  | 'rejected'
  | 'cancelled'
  | 'interrupted'
  | 'budget_exceeded'
  /** A plugin's hook failed for this call (it threw, or edited the arguments into ones the schema refuses). */
  | 'hook_failed'
  /** A plugin's permission policy denied the call. */
  | 'denied'
  /** A plugin's `beforeToolCall` hook, or the user deciding a pending call (`skip`), skipped the call. */
  | 'skipped';

/**
 * Why a call waited for approval and, once decided, what the user decided: `approved` (it ran), `rejected`
 * (it did not; the model reads that it was refused), `answered` (it did not run: the user gave its result,
 * and the model reads that the user answered it) or `skipped` (it did not run; the model goes on without it).
 * Records written before `answered` and `skipped` existed parse as they are.
 */
export const ToolApproval = z.object({
  reason: z.string(),
  decision: z.enum(['approved', 'rejected', 'answered', 'skipped']).optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  /** What the user gave as the reason for the decision (read by the model after a rejection, answer or skip). */
  comment: z.string().optional(),
});
export type ToolApproval = z.infer<typeof ToolApproval>;

/**
 * The id of the model response (one provider call) an output came from: the same for every output of that
 * response, so the projection can send them back as the one answer they were.
 */
const responseId = z.string().optional();

/**
 * The facts of the model call a response came from, kept on its last output (the one recorded when the
 * stream ended): when it started, streamed its first event and ended, its usage and why it finished. The run
 * report (`promptReport`) is derived from these and from the tool calls' own times.
 */
export const ModelCallFacts = z.object({
  /** The concrete model name the call was made with. */
  model: z.string().optional(),
  startedAt: z.string(),
  /** When the first text, reasoning or call arrived; absent when nothing did. */
  firstTokenAt: z.string().optional(),
  endedAt: z.string(),
  usage: z
    .object({
      inputTokens: z.number().nonnegative(),
      outputTokens: z.number().nonnegative(),
      cachedInputTokens: z.number().nonnegative().optional(),
      reasoningTokens: z.number().nonnegative().optional(),
      cost: z.number().nonnegative().optional(),
    })
    .optional(),
  /** Absent when the stream failed before the model said why it stopped. */
  finishReason: z.string().optional(),
  /**
   * Tessera's estimate of what the call was sent (messages, instructions and tools). Beside the provider's
   * count (`usage.inputTokens`) it says how the provider counts, which the history budget scales by.
   */
  estimatedInputTokens: z.number().nonnegative().optional(),
});
export type ModelCallFacts = z.infer<typeof ModelCallFacts>;
const modelCall = ModelCallFacts.optional();

export const TextOutput = OutputBase.extend({
  type: z.literal('text'),
  text: z.string(),
  /** The model refused: `text` is its refusal message. */
  refusal: z.literal(true).optional(),
  responseId,
  modelCall,
});
export type TextOutput = z.infer<typeof TextOutput>;

/**
 * A tool call and, once known, its result. `id` is Tessera's id (what `approve`/`reject` take); `callId` is
 * the model's. No `result` yet means queued (no `startedAt`) or running (`startedAt`, no `endedAt`).
 */
export const ToolOutput = OutputBase.extend({
  type: z.literal('tool'),
  callId: z.string(),
  toolId: z.string(),
  /** The validated input, or the parsed-but-invalid arguments for a call that failed validation. */
  input: z.unknown(),
  /** The raw argument text, kept only when it could not be parsed as JSON. */
  arguments: z.string().optional(),
  result: PromptOutputToolResult.optional(),
  approval: ToolApproval.optional(),
  /**
   * The arguments the call runs with, when they differ from the model's `input`: edited by a plugin's
   * `beforeToolCall` hook or by the user who approved the call. The model is sent these; `input` keeps the
   * model's own.
   */
  editedInput: z.unknown().optional(),
  /** Who edited the arguments last: the approving user's id, or `plugin:<id>` for a hook. */
  editedBy: z.string().optional(),
  /**
   * Everyone who edited the arguments, in order: each hook's `plugin:<id>`, then the approving user's id;
   * `editedBy` is the last of them. Absent on records written before it was kept (read `editedBy` there).
   */
  editors: z.array(z.string()).optional(),
  /**
   * What the model reads instead of `result`, when a plugin's `afterToolCall` hook rewrote it; `result`
   * keeps what the tool returned.
   */
  rewrittenResult: PromptOutputToolResult.optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  responseId,
  modelCall,
});
export type ToolOutput = z.infer<typeof ToolOutput>;

/**
 * A model's reasoning: its summary, or the raw reasoning text some servers give (DeepSeek, xAI, Groq, Ollama,
 * vLLM, LM Studio), both shown to users; `providerData` is what the provider must be sent back as it was
 * (encrypted content, OpenRouter's `reasoning_details`).
 */
export const ReasoningOutput = OutputBase.extend({
  type: z.literal('reasoning'),
  summary: z.string().optional(),
  text: z.string().optional(),
  providerData: z.unknown().optional(),
  responseId,
  modelCall,
});
export type ReasoningOutput = z.infer<typeof ReasoningOutput>;

/**
 * A pause for the user's decision, outside any tool call: a plugin's `betweenRounds` hook (`source:
 * 'plugin'`) or a budget the prompt reached (`source: 'budget'`).
 * Without `decision` it is pending and the prompt waits (`waiting_for_approval`); `platform.resume(id, {
 * choice })` records the decision in place (with `raised`, the larger budgets to continue with).
 */
export const PauseOutput = OutputBase.extend({
  type: z.literal('pause'),
  // 'doom_loop': core's own doom-loop check, now @tessera/plugin-doom-loop (`source: 'plugin'`). Core no
  // longer records it; it stays so that records written before still parse.
  source: z.enum(['doom_loop', 'plugin', 'budget']),
  /** The plugin whose hook paused, for `source: 'plugin'`. */
  plugin: z.string().optional(),
  /** For `source: 'budget'`: which budget (its `Budgets` name), its limit then, and what the prompt had used. */
  budget: z.object({ name: z.string(), limit: z.number(), used: z.number() }).optional(),
  /** The budgets the user raised to continue (`Budgets` names and their new limits), kept for the rest of the prompt. */
  raised: z.record(z.string(), z.number()).optional(),
  reason: z.string(),
  decision: z.enum(['continue', 'stop']).optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
});
export type PauseOutput = z.infer<typeof PauseOutput>;

/**
 * A message the user sent while the prompt ran (`platform.messages.send({ mode: 'steer' })`), delivered to
 * the model at a round boundary: the model reads it as a user message.
 */
export const SteeringOutput = OutputBase.extend({
  type: z.literal('steering'),
  text: z.string(),
  /** The id the message had while it waited (`QueuedMessage.id`). */
  messageId: z.string(),
  userId: z.string(),
});
export type SteeringOutput = z.infer<typeof SteeringOutput>;

/**
 * A guardrail tripped. What it blocked stays in the record, and the model never reads it again, in this
 * prompt or a later one: the projection sends a short note in its place (which guardrail withheld what).
 */
export const GuardrailOutput = OutputBase.extend({
  type: z.literal('guardrail'),
  guardrail: z.enum(['input', 'output']),
  /** The plugin whose guardrail tripped. */
  plugin: z.string(),
  reason: z.string(),
  /**
   * What is withheld: the prompt's `input`, a `steering` output (`targetId` its id), or a model `response`
   * (`targetId` its response id: its text, reasoning and calls, which were not run).
   */
  target: z.enum(['input', 'steering', 'response']),
  targetId: z.string().optional(),
});
export type GuardrailOutput = z.infer<typeof GuardrailOutput>;

/**
 * The open output union. Plugins add their variants by declaration merging:
 *
 * ```ts
 * declare module '@tessera/core' {
 *   interface PromptOutputTypes { widget: WidgetOutput }
 * }
 * ```
 */
export interface PromptOutputTypes {
  text: TextOutput;
  tool: ToolOutput;
  reasoning: ReasoningOutput;
  pause: PauseOutput;
  steering: SteeringOutput;
  guardrail: GuardrailOutput;
}

export type PromptOutput = PromptOutputTypes[keyof PromptOutputTypes];
export type PromptOutputType = keyof PromptOutputTypes;

/** What a tool or plugin emits: an output without the fields Tessera fills in. */
export type NewOutput<T extends OutputBase = PromptOutput> = T extends unknown
  ? Omit<T, 'id' | 'createdAt' | 'toolCallId'> & { id?: string }
  : never;
