import { z } from 'zod';
import { OutputBase, type PromptRecord } from './prompt.ts';

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
  | 'budget_exceeded';

export const ToolApproval = z.object({
  reason: z.string(),
  decision: z.enum(['approved', 'rejected']).optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  /** What the user gave as the reason for a rejection. */
  comment: z.string().optional(),
});
export type ToolApproval = z.infer<typeof ToolApproval>;

/**
 * The id of the model response (one provider call) an output came from: the same for every output of that
 * response, so the projection can send them back as the one answer they were.
 */
const responseId = z.string().optional();

export const TextOutput = OutputBase.extend({
  type: z.literal('text'),
  text: z.string(),
  /** The model refused: `text` is its refusal message. */
  refusal: z.literal(true).optional(),
  responseId,
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
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  responseId,
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
});
export type ReasoningOutput = z.infer<typeof ReasoningOutput>;

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
}

export type PromptOutput = PromptOutputTypes[keyof PromptOutputTypes];
export type PromptOutputType = keyof PromptOutputTypes;

/** What a tool or plugin emits: an output without the fields Tessera fills in. */
export type NewOutput<T extends OutputBase = PromptOutput> = T extends unknown
  ? Omit<T, 'id' | 'createdAt' | 'toolCallId'> & { id?: string }
  : never;

/** A prompt with its outputs typed by the registered variants. */
export type Prompt = Omit<PromptRecord, 'output'> & { output: PromptOutput[] };
