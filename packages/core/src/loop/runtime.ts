import type { DependencyContainer } from 'tsyringe';
import type { EventBus } from '../events/event-bus.ts';
import type { ModelClass } from '../model/prompt.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';
import type { ProjectionCache } from '../projection/prompts-to-messages.ts';
import type { ModelProvider } from '../provider/provider.ts';
import type { Store } from '../store/store.ts';
import type { HookTable } from './hook-table.ts';
import type { RoundCaches } from './round-caches.ts';

/**
 * Hard limits per prompt. Reaching one pauses the prompt (a `pause` output, `source: 'budget'`) until the
 * user continues with a larger one or stops, except the wall time, which ends it (`stopReason.code:
 * 'max_wall_time'`), and `maxConcurrentTools`, which only makes calls wait their turn.
 */
export type Budgets = {
  /** Model calls per prompt (default 25). */
  maxRounds: number;
  /** Tool calls started per prompt (default 100). */
  maxToolCalls: number;
  /** Wall time of one run of the loop, in ms (default 10 minutes); time spent waiting for approval is not counted. */
  maxWallTimeMs: number;
  /** Total tokens per prompt (default: no limit). */
  maxTokens: number;
  /** Input tokens per prompt, summed over its model calls (default: no limit). */
  maxInputTokens: number;
  /** Output tokens per prompt, summed over its model calls (default: no limit). */
  maxOutputTokens: number;
  /**
   * Cost per prompt, in the unit of `usage.cost` (the provider's prices; default: no limit). A prompt whose
   * provider reports no cost is not limited by it.
   */
  maxCost: number;
  /**
   * Tool calls failing one after another (errors of any tools, different calls too) before
   * the prompt pauses; a success resets the count, and calls the user rejected or a policy denied, skipped
   * or cancelled ones neither count nor reset it (default 5).
   */
  maxConsecutiveToolErrors: number;
  /** Tool calls of one response running at once; the others wait their turn, in the model's order (default 8). */
  maxConcurrentTools: number;
};

export type LoopOptions = {
  budgets: Budgets;
  /** Concrete model names for the two model classes. */
  models: Record<ModelClass, string>;
  /** Text placed before every plugin's context. */
  instructions?: string;
  /** Default timeout of one tool call, in ms (default 2 minutes). */
  toolTimeoutMs: number;
  /** Bound on each tool result as sent to the model (the record keeps all of it). */
  maxResultChars: number;
  /** Fit the conversation history into this many estimated tokens (default: no limit). */
  historyTokens?: number;
  /** A conversation whose history's record is longer than this (JSON characters) starts no more prompts. */
  maxConversationChars?: number;
};

export const DEFAULT_BUDGETS: Budgets = {
  maxRounds: 25,
  maxToolCalls: 100,
  maxWallTimeMs: 10 * 60_000,
  maxTokens: Number.POSITIVE_INFINITY,
  maxInputTokens: Number.POSITIVE_INFINITY,
  maxOutputTokens: Number.POSITIVE_INFINITY,
  maxCost: Number.POSITIVE_INFINITY,
  maxConsecutiveToolErrors: 5,
  maxConcurrentTools: 8,
};

/** Everything a prompt's loop needs from the platform around it. */
export type Runtime = {
  store: Store;
  provider: ModelProvider;
  plugins: readonly AnyPlugin[];
  outputs: OutputRegistry;
  bus: EventBus;
  services: DependencyContainer;
  projectionCache: ProjectionCache;
  /** What rounds reuse between them: tool definitions, the last offer, plugins' bound helpers. */
  caches: RoundCaches;
  /** The plugins' hooks, guardrails and permission policies by hook point. */
  hooks: HookTable;
  options: LoopOptions;
};
