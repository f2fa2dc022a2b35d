import type { DependencyContainer } from 'tsyringe';
import type { NewOutput, PromptOutputToolResult } from '../model/outputs.ts';
import type { PluginState } from '../model/plugin-state.ts';
import type { Prompt } from '../model/prompt.ts';
import type { ModelMessage } from '../provider/messages.ts';
import type { FinishReason, ModelStreamEvent, ModelToolDefinition } from '../provider/provider.ts';

/** What every hook, guardrail and permission policy receives: where it runs, and the hooking plugin's state. */
export type HookContext<TState> = {
  userId: string;
  conversationId: string;
  /** The prompt as recorded so far. */
  prompt: Prompt;
  /** The state of the plugin whose hook this is, for this conversation. */
  state: PluginState<TState>;
  services: DependencyContainer;
  /** Aborted when the prompt is cancelled or runs out of wall time: a hook still waiting then is abandoned. */
  signal: AbortSignal;
};

/** The parts of a model call a `beforeModelCall` hook may see and change. */
export type ModelCallRequest = {
  instructions: string;
  messages: readonly ModelMessage[];
  /** A subset of the round's tools: a hook can take tools away, not add ones the round did not offer. */
  tools: readonly ModelToolDefinition[];
};

/**
 * `undefined`: no change. A partial request: those parts replace the request's (the next hook sees them;
 * messages must stay well formed, every call followed by its output). `{ skip }`: no model call in this
 * round; `skip.text` is recorded as the model's answer and the prompt completes.
 */
export type BeforeModelCallResult = Partial<ModelCallRequest> | { skip: { text: string } } | undefined;

/** A tool call as hooks see it: `input` is validated by the tool's schema (and edited by earlier hooks). */
export type ToolCallView = { id: string; toolId: string; input: unknown };

/**
 * `undefined`: no change. `{ input }`: run the call with these arguments instead (validated again by the
 * tool's schema; recorded as `editedInput`, the model's own stay in `input`). `{ skip }`: do not run it and
 * record this result (the model reads it). `{ requireApproval }`: the call waits for the user's approval
 * with this reason (a hook can ask for approval, never waive it).
 */
export type BeforeToolCallResult =
  | { input: unknown }
  | { skip: { output: unknown } | { error: string } }
  | { requireApproval: string }
  | undefined;

/** `undefined`: no change. `{ result }`: what the model reads instead (the record keeps the tool's own). */
export type AfterToolCallResult = { result: { output: unknown } | { error: string } } | undefined;

/**
 * The prompt's model, for a hook's own call (a summary, a classification): not one of the prompt's rounds,
 * so not counted in its usage or budgets (record what it cost yourself), and aborted with the run.
 */
export type HookModel = {
  /** The concrete model the prompt runs on (`models[prompt.model]`). */
  name: string;
  stream(request: {
    instructions: string;
    messages: readonly ModelMessage[];
    tools?: readonly ModelToolDefinition[];
  }): AsyncIterable<ModelStreamEvent>;
  /** Estimated tokens of messages as this model counts them (`ModelProvider.estimateTokens`, else ~4 chars). */
  estimate(messages: readonly ModelMessage[]): number;
};

/** What `beforeFirstModelCall` receives: the whole history, the model, and a way to record outputs. */
export type FirstModelCallContext<TState> = HookContext<TState> & {
  /** The conversation's earlier prompts, oldest first, whole: no history budget or view has left any out. */
  history: readonly Prompt[];
  model: HookModel;
  /** Prompts as the model reads them: every output through its variant's projection, results bounded. */
  project(prompts: readonly Prompt[]): ModelMessage[];
  /** Records an output of a registered variant on the prompt (validated, stored, published); its id. */
  record(output: NewOutput): Promise<string>;
};

/**
 * What the model reads of the earlier prompts: `prompts` (some of the history, in order) with `before` in
 * front of them (e.g. a summary of those left out). The history budget applies to this view afterwards.
 */
export type HistoryView = { prompts: readonly Prompt[]; before?: readonly ModelMessage[] };

/** `undefined` or `'continue'`: go on. `{ pause }`: wait for the user to continue or stop. `{ stop }`: end now. */
export type BetweenRoundsResult = 'continue' | { pause: string } | { stop: string } | undefined;

type MaybePromise<T> = T | Promise<T>;

/** A hook of a plugin with state `TState`: it receives the hook context and `TContext`, and may answer `TResult`. */
type Hook<TState, TContext, TResult> = (context: HookContext<TState> & TContext) => MaybePromise<TResult>;

/**
 * Hooks into the loop, run in plugin order, each seeing what the previous one returned. A hook that throws
 * is published (`prompt.hook-failed`) and recorded: the call gets a `hook_failed` error, or the prompt fails
 * with `stopReason.code: 'hook_failed'`. No hook can make a call run without the approval it needs.
 */
export type PluginHooks<TState> = {
  /**
   * Once before the prompt's first model call (again in a later run if none was made yet), after the input
   * guardrails: e.g. summarize a long history with the model and record the summary.
   */
  beforeFirstModelCall?: (context: FirstModelCallContext<TState>) => MaybePromise<void>;
  /**
   * Once a run, before its first model call (after `beforeFirstModelCall`): which earlier prompts the model
   * reads, and what before them; the next plugin's hook sees this view as `history`. The history budget
   * (`historyTokens`) then leaves out the oldest of these prompts if the view does not fit.
   */
  historyView?: Hook<TState, { history: readonly Prompt[] }, HistoryView | undefined>;
  /** Before each model call: see and change its messages, tools and instructions, or skip it. */
  beforeModelCall?: Hook<TState, { round: number; request: ModelCallRequest }, BeforeModelCallResult>;
  /** After each model call, with what the model answered (text and calls, before any call runs). */
  afterModelCall?: Hook<
    TState,
    { round: number; response: { text: string; calls: readonly ToolCallView[]; finish?: FinishReason } },
    void
  >;
  /** Before each call that passed validation: change its arguments, skip it, or require approval. */
  beforeToolCall?: Hook<TState, { call: ToolCallView }, BeforeToolCallResult>;
  /** After each call ran: change the result the model reads. */
  afterToolCall?: Hook<TState, { call: ToolCallView; result: PromptOutputToolResult }, AfterToolCallResult>;
  /** After a round's calls have their results, before the next model call: continue, pause or stop. */
  betweenRounds?: Hook<TState, { round: number }, BetweenRoundsResult>;
};

/** `{ trip }` ends the prompt at once, `failed` with `stopReason.code: 'guardrail'` and this reason. */
export type GuardrailResult = { trip: string } | undefined;

/**
 * Checks that can end a prompt. A guardrail that throws trips (failing closed). Run in plugin order; the
 * first trip wins.
 */
export type PluginGuardrails<TState> = {
  /**
   * Before the prompt's first model call, on the user's input, and on each steering message as it arrives.
   * A trip withholds that text from the model from then on (the record keeps it).
   */
  input?: Hook<TState, { input: string | undefined }, GuardrailResult>;
  /**
   * On each model response, once it is recorded and before any of its calls runs: its `text` and its
   * `calls` with the arguments they would run with; `final` when it has no calls (the answer). A trip stops
   * its calls, and the model never reads the response again.
   */
  output?: Hook<TState, { text: string; calls: readonly ToolCallView[]; final: boolean }, GuardrailResult>;
};

/**
 * A permission policy's verdict on a call: `allow` runs it without approval (over the tool's
 * `requireApproval`), `ask` makes it wait for approval, `deny` records a `denied` error the model reads,
 * `undefined` leaves it to the tool's `requireApproval`. Over several plugins the strictest wins
 * (deny, then ask, then allow).
 */
export type PermissionVerdict =
  | 'allow'
  | 'deny'
  | 'ask'
  | { decision: 'allow' | 'deny' | 'ask'; reason?: string };

/** A plugin's permission policy: a verdict per tool id and input. A policy that throws means `ask`. */
export type PermissionPolicy<TState> = Hook<TState, { call: ToolCallView }, PermissionVerdict | undefined>;
