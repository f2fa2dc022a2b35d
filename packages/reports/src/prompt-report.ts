import {
  isFinalState,
  type ModelCallFacts,
  type ModelMessage,
  type Prompt,
  type PromptOutput,
  PromptState,
  type ToolOutput,
  toolResultText,
} from '@tessera/core';
import { asCompaction, type RecordedCompaction } from './compaction-record.ts';
import { contextTokens } from './context-tokens.ts';
import type {
  CompactionReport,
  ModelCallReport,
  PromptReport,
  SubAgentReport,
  SubAgentsReport,
  ToolCallOutcome,
  ToolCallReport,
  UsageTotals,
} from './report-schema.ts';

const ms = (from: string, to: string): number => Math.max(0, Date.parse(to) - Date.parse(from));
const encoder = new TextEncoder();

/**
 * The run report of one prompt: per model call (from the facts on its response's last output) and per tool
 * call (from its own times and result), with totals from the prompt's usage. Pure: the same record gives the
 * same report, wherever it is computed (server, browser, a test).
 */
export function promptReport(prompt: Prompt, options: ReportOptions = {}): PromptReport {
  const modelCalls: ModelCallReport[] = [];
  const toolCalls: ToolCallReport[] = [];
  const callsPerResponse = new Map<string, number>();
  let compaction: CompactionReport | undefined;
  const subAgents: SubAgentReport[] = [];
  for (const output of prompt.output as PromptOutput[]) {
    const subAgent = subAgentReport(output);
    if (subAgent) subAgents.push(subAgent);
    const facts = (output as { modelCall?: ModelCallFacts }).modelCall;
    const responseId = (output as { responseId?: string }).responseId;
    if (output.type === 'tool') {
      toolCalls.push(toolCallReport(output));
      if (responseId) callsPerResponse.set(responseId, (callsPerResponse.get(responseId) ?? 0) + 1);
    }
    if (facts && responseId) modelCalls.push(modelCallReport(responseId, facts));
    const compacted = asCompaction(output);
    if (compacted) compaction = compactionReport(compacted);
  }
  for (const call of modelCalls) call.toolCalls = callsPerResponse.get(call.responseId) ?? 0;
  modelCalls.sort((a, b) => a.startedAt.localeCompare(b.startedAt));

  const final = isFinalState(prompt.state);
  const { usage } = prompt;
  return {
    promptId: prompt.id,
    state: prompt.state,
    startedAt: prompt.createdAt,
    ...(final && { endedAt: prompt.updatedAt, totalMs: ms(prompt.createdAt, prompt.updatedAt) }),
    stop: prompt.stopReason?.code ?? (prompt.state === 'completed' ? 'completed' : prompt.state),
    ...(prompt.stopReason && { stopReason: prompt.stopReason }),
    modelCalls,
    toolCalls,
    totals: {
      modelCalls: usage.modelCalls,
      toolCalls: toolCalls.length,
      failedToolCalls: toolCalls.filter((call) => call.outcome === 'error' || call.outcome === 'not_run')
        .length,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedInputTokens: usage.cachedInputTokens,
      reasoningTokens: usage.reasoningTokens,
      ...(usage.cost !== undefined && { cost: usage.cost }),
      modelMs: modelCalls.reduce((sum, call) => sum + call.latencyMs, 0),
      toolMs: toolCalls.reduce((sum, call) => sum + (call.latencyMs ?? 0), 0),
    },
    ...(compaction && { compaction }),
    ...(subAgents.length > 0 && { subAgents: subAgentsReport(subAgents) }),
    ...(options.history && {
      context: {
        ...withoutAnchor(contextTokens(options.history, { current: prompt, estimate: options.estimate })),
        ...(options.budget !== undefined && { budget: options.budget }),
      },
    }),
  };
}

/** A sub-agent run the output records (the agents plugin's `agent-run`, read by its shape), if it is one. */
function subAgentReport(output: PromptOutput): SubAgentReport | undefined {
  if ((output.type as string) !== 'agent-run') return undefined;
  const run = output as Partial<Record<string, unknown>>;
  const text = (key: string) => (typeof run[key] === 'string' ? (run[key] as string) : undefined);
  const [toolCallId, agent, conversationId, promptId, state] = [
    text('toolCallId'),
    text('agent'),
    text('conversationId'),
    text('promptId'),
    text('state'),
  ];
  const known = PromptState.safeParse(state);
  if (!toolCallId || !agent || !conversationId || !promptId || !known.success) return undefined;
  const usage = usageOf(run.usage);
  return {
    toolCallId,
    agent,
    conversationId,
    promptId,
    state: known.data,
    ...(usage && { usage }),
  };
}

const count = (value: unknown): number => (typeof value === 'number' && value >= 0 ? value : 0);

function usageOf(value: unknown): UsageTotals | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  return {
    modelCalls: count(usage.modelCalls),
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    cachedInputTokens: count(usage.cachedInputTokens),
    reasoningTokens: count(usage.reasoningTokens),
    ...(typeof usage.cost === 'number' && usage.cost >= 0 && { cost: usage.cost }),
  };
}

function subAgentsReport(runs: SubAgentReport[]): SubAgentsReport {
  const totals: UsageTotals = {
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
  };
  for (const { usage } of runs) {
    if (!usage) continue;
    totals.modelCalls += usage.modelCalls;
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.cachedInputTokens += usage.cachedInputTokens;
    totals.reasoningTokens += usage.reasoningTokens;
    if (usage.cost !== undefined) totals.cost = (totals.cost ?? 0) + usage.cost;
  }
  return { runs, totals };
}

export type ReportOptions = {
  /** The conversation's prompts before this one: the report then says how full the context is. */
  history?: readonly Prompt[];
  /** The provider's token estimate (`ModelProvider.estimateTokens`), else about four characters a token. */
  estimate?: (messages: readonly ModelMessage[]) => number;
  /** The history budget (`historyTokens`), shown with the context's size. */
  budget?: number;
};

function modelCallReport(responseId: string, facts: ModelCallFacts): ModelCallReport {
  const usage = facts.usage;
  return {
    responseId,
    ...(facts.model !== undefined && { model: facts.model }),
    startedAt: facts.startedAt,
    endedAt: facts.endedAt,
    latencyMs: ms(facts.startedAt, facts.endedAt),
    ...(facts.firstTokenAt !== undefined && {
      timeToFirstTokenMs: ms(facts.startedAt, facts.firstTokenAt),
    }),
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.cachedInputTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
    ...(usage?.cost !== undefined && { cost: usage.cost }),
    ...(facts.finishReason !== undefined && { finishReason: facts.finishReason }),
    toolCalls: 0,
  };
}

function compactionReport(output: RecordedCompaction): CompactionReport {
  const call = output.modelCall;
  return {
    outputId: output.id,
    prompts: output.prompts,
    tokensBefore: output.tokensBefore,
    threshold: output.threshold,
    summarized: output.summary !== undefined,
    ...(output.error !== undefined && { error: output.error }),
    ...(call && {
      startedAt: call.startedAt,
      endedAt: call.endedAt,
      latencyMs: ms(call.startedAt, call.endedAt),
      ...(call.usage && { inputTokens: call.usage.inputTokens, outputTokens: call.usage.outputTokens }),
    }),
  };
}

function toolCallReport(output: ToolOutput): ToolCallReport {
  const { result } = output;
  const outcome: ToolCallOutcome = result?.type ?? 'not_run';
  const code = result?.type === 'error' ? (result.error as { code?: unknown } | null)?.code : undefined;
  return {
    id: output.id,
    callId: output.callId,
    toolId: output.toolId,
    ...(output.responseId !== undefined && { responseId: output.responseId }),
    ...(output.startedAt !== undefined && { startedAt: output.startedAt }),
    ...(output.endedAt !== undefined && { endedAt: output.endedAt }),
    ...(output.startedAt !== undefined &&
      output.endedAt !== undefined && { latencyMs: ms(output.startedAt, output.endedAt) }),
    resultBytes: result ? encoder.encode(toolResultText(output)).length : 0,
    outcome,
    ...(typeof code === 'string' && { errorCode: code }),
  };
}

const withoutAnchor = ({ anchor: _, ...counts }: ReturnType<typeof contextTokens>) => counts;
