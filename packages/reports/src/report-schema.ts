import { PromptState, StopReason } from '@tessera/core';
import { z } from 'zod';

/** One model call of a prompt: its times, its usage, why it stopped, how many calls it made. */
export const ModelCallReport = z.object({
  responseId: z.string(),
  model: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
  latencyMs: z.number().nonnegative(),
  /** From the start of the call to its first streamed event. */
  timeToFirstTokenMs: z.number().nonnegative().optional(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative(),
  reasoningTokens: z.number().nonnegative(),
  cost: z.number().nonnegative().optional(),
  finishReason: z.string().optional(),
  toolCalls: z.number().int().nonnegative(),
});
export type ModelCallReport = z.infer<typeof ModelCallReport>;

/** `not_run`: the call got no result (interrupted, or never started). */
export const ToolCallOutcome = z.enum(['success', 'error', 'pending', 'not_run']);
export type ToolCallOutcome = z.infer<typeof ToolCallOutcome>;

export const ToolCallReport = z.object({
  /** Tessera's id of the call (what `approve`/`reject` take). */
  id: z.string(),
  callId: z.string(),
  toolId: z.string(),
  responseId: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  latencyMs: z.number().nonnegative().optional(),
  /** UTF-8 bytes of the result as the model reads it. */
  resultBytes: z.number().int().nonnegative(),
  outcome: ToolCallOutcome,
  /** For an error result, its code when Tessera recorded it (`timeout`, `rejected`, `tool_failed`, ...). */
  errorCode: z.string().optional(),
});
export type ToolCallReport = z.infer<typeof ToolCallReport>;

export const PromptReportTotals = z.object({
  modelCalls: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  /** Calls that ended in an error or got no result. */
  failedToolCalls: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative(),
  reasoningTokens: z.number().nonnegative(),
  cost: z.number().nonnegative().optional(),
  /** Sum of the model calls' latencies. */
  modelMs: z.number().nonnegative(),
  /** Sum of the tool calls' latencies. */
  toolMs: z.number().nonnegative(),
});
export type PromptReportTotals = z.infer<typeof PromptReportTotals>;

/** A compaction made before the prompt's first model call: the summary call, or why there is none. */
export const CompactionReport = z.object({
  outputId: z.string(),
  /** Prompts the summary covers. */
  prompts: z.number().int().nonnegative(),
  tokensBefore: z.number().nonnegative(),
  threshold: z.number().nonnegative(),
  summarized: z.boolean(),
  error: z.string().optional(),
  /** The summary call (not counted in the prompt's usage, which is its own model calls'). */
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  latencyMs: z.number().nonnegative().optional(),
  inputTokens: z.number().nonnegative().optional(),
  outputTokens: z.number().nonnegative().optional(),
});
export type CompactionReport = z.infer<typeof CompactionReport>;

/** How full the conversation's context was when the prompt ended (see `contextTokens`). */
export const ReportContext = z.object({
  /** The provider's count of the last model call plus the estimate of what came after it. */
  tokens: z.number().nonnegative(),
  reported: z.number().nonnegative(),
  estimated: z.number().nonnegative(),
  /** The history budget the projection keeps to (`historyTokens`), when the app set one. */
  budget: z.number().positive().optional(),
});
export type ReportContext = z.infer<typeof ReportContext>;

/** What model calls used: a sub-agent's run's, or all of a prompt's sub-agents' together. */
export const UsageTotals = z.object({
  modelCalls: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative(),
  reasoningTokens: z.number().nonnegative(),
  cost: z.number().nonnegative().optional(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

/**
 * A sub-agent a tool call ran (the agents plugin's `agent-run` output): the child prompt, its state when last
 * seen, and what it used (its own sub-agents included) once it ended.
 */
export const SubAgentReport = z.object({
  toolCallId: z.string(),
  agent: z.string(),
  conversationId: z.string(),
  promptId: z.string(),
  state: PromptState,
  usage: UsageTotals.optional(),
});
export type SubAgentReport = z.infer<typeof SubAgentReport>;

/** The prompt's sub-agents, and what they used together: the prompt's `totals` do not count it. */
export const SubAgentsReport = z.object({ runs: z.array(SubAgentReport), totals: UsageTotals });
export type SubAgentsReport = z.infer<typeof SubAgentsReport>;

/** A prompt's run report (like seed 004's `AgentRunReport`), derived from its record alone. */
export const PromptReportSchema = z.object({
  promptId: z.string(),
  state: PromptState,
  startedAt: z.string(),
  /** When the prompt reached its final state; absent while it runs or waits. */
  endedAt: z.string().optional(),
  totalMs: z.number().nonnegative().optional(),
  /** Why it stopped: `stopReason.code`, else `completed`, else its state. */
  stop: z.string(),
  stopReason: StopReason.optional(),
  modelCalls: z.array(ModelCallReport),
  toolCalls: z.array(ToolCallReport),
  totals: PromptReportTotals,
  /** The history summarized before this prompt's first model call. */
  compaction: CompactionReport.optional(),
  /** With the conversation's earlier prompts: the context's size after this prompt. */
  context: ReportContext.optional(),
  /** The sub-agents its tool calls ran, and their usage (not in `totals`: add both for the whole cost). */
  subAgents: SubAgentsReport.optional(),
});
export type PromptReport = z.infer<typeof PromptReportSchema>;
