export * from './errors.ts';
export type {
  EventFilter,
  EventHandler,
  Following,
  RelayRoutes,
  StreamOptions,
} from './events/event-bus.ts';
export { EventBus } from './events/event-bus.ts';
export type { EventOf, TesseraEvent, TesseraEventType } from './events/events.ts';
export { type EventRelay, type RelayMessage, type RelayTopic, relayTopics } from './events/relay.ts';
export { newId } from './ids.ts';
export { budgetsOf, type ReachedBudget } from './loop/budgets.ts';
export { DEFAULT_MAX_CONVERSATION_CHARS } from './loop/conversation-size.ts';
export { MAX_RESPONSE_CALLS, MAX_RESPONSE_CHARS } from './loop/model-response.ts';
export { type LoopStep, planStep } from './loop/plan.ts';
export { PromptCompletion, type RunOptions } from './loop/prompt-completion.ts';
export { type Budgets, DEFAULT_BUDGETS, type LoopOptions, type Runtime } from './loop/runtime.ts';
export { MAX_RESULT_RECORD_CHARS } from './loop/tool-calls.ts';
export { type BudgetRaise, RAISABLE_BUDGETS, type RaisableBudget } from './model/budgets.ts';
export { Conversation, ForkPoint } from './model/conversation.ts';
export {
  GuardrailOutput,
  ModelCallFacts,
  type NewOutput,
  OutputBase,
  PauseOutput,
  type PromptOutput,
  PromptOutputToolResult,
  type PromptOutputType,
  type PromptOutputTypes,
  ReasoningOutput,
  SteeringOutput,
  TextOutput,
  ToolApproval,
  type ToolErrorCode,
  type ToolErrorInfo,
  ToolOutput,
} from './model/outputs.ts';
export type { PluginState } from './model/plugin-state.ts';
export {
  emptyUsage,
  FINAL_PROMPT_STATES,
  isFinalState,
  ModelClass,
  type Prompt,
  type PromptRecord,
  PromptSchema,
  PromptState,
  PromptUsage,
  StopReason,
} from './model/prompt.ts';
export { PromptParent, parentOf } from './model/prompt-parent.ts';
export type { QueuedMessage } from './model/queued-message.ts';
export { boundText } from './outputs/bounds.ts';
export { toolResultText } from './outputs/core-outputs.ts';
export {
  type AnyOutputVariant,
  defineOutput,
  type OutputOf,
  type OutputProjection,
  type OutputVariant,
  type ProjectionContext,
  type VariantOutput,
} from './outputs/define-output.ts';
export { OutputRegistry } from './outputs/output-registry.ts';
export { withheldNote } from './outputs/withheld.ts';
export { DEFAULT_MAX_BRANCHES, DEFAULT_MAX_CONVERSATIONS } from './platform/conversation-bounds.ts';
export { createPlatform } from './platform/create-platform.ts';
export { MAX_WAITING_MESSAGES } from './platform/messages.ts';
export type { PlatformOptions } from './platform/platform.ts';
export {
  createServiceContainer,
  type DependencyContainer,
  type InjectionToken,
  PlatformToken,
  StoreToken,
} from './platform/services.ts';
export {
  type AnswerCallDecision,
  type AnyPlugin,
  type ApproveCallDecision,
  CONTEXT_ORDER,
  type ContextItem,
  type ConversationDeletedContext,
  type ConversationForkedContext,
  definePlugin,
  isPlugin,
  type MessageDelivery,
  type MessageOptions,
  type OfferedTool,
  type PauseDecision,
  type Platform,
  type PlatformConversations,
  type PlatformEvents,
  type PlatformMessages,
  type Plugin,
  type PluginDefinition,
  type PluginStartContext,
  type PluginStopContext,
  type PrepareContext,
  type PromptRun,
  type SendOptions,
  type SentMessage,
  type SkipCallDecision,
  type StartedPrompt,
  type ToolCallDecision,
  type ToolInputBase,
  type VersionedState,
} from './plugins/define-plugin.ts';
export {
  type AnyPluginFactory,
  definePluginFactory,
  isPluginFactory,
  type PluginFactory,
  type PluginFactoryDefinition,
  type PluginFactoryOptions,
  type PluginOptionsEnv,
} from './plugins/define-plugin-factory.ts';
export type {
  AfterToolCallResult,
  BeforeModelCallResult,
  BeforeToolCallResult,
  BetweenRoundsResult,
  FirstModelCallContext,
  GuardrailResult,
  HistoryView,
  HookContext,
  HookModel,
  ModelCallRequest,
  PermissionPolicy,
  PermissionVerdict,
  PluginGuardrails,
  PluginHooks,
  ToolCallView,
} from './plugins/hooks.ts';
export { type CallOf, isCall } from './plugins/is-call.ts';
export {
  DEFAULT_MAX_RESULT_CHARS,
  ProjectionCache,
  type ProjectionOptions,
  projectPrompt,
  promptsToMessages,
} from './projection/prompts-to-messages.ts';
export { assistantMessage, type ModelMessage, userMessage } from './provider/messages.ts';
export {
  estimateTokens,
  type FinishReason,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolDefinition,
  type ModelUsage,
} from './provider/provider.ts';
export { createMemoryStore, MemoryStore } from './store/memory-store.ts';
export {
  matchesSearch,
  SEARCH_PAGE_MAX,
  SEARCH_QUERY_MAX_CHARS,
  SEARCH_QUERY_MAX_TERMS,
  type SearchHit,
  type SearchHitField,
  type SearchSnippet,
  searchCursor,
  searchPage,
  searchSnippet,
  searchTerms,
} from './store/search.ts';
export type {
  ConversationStore,
  MessageStore,
  NewFork,
  Page,
  PageOptions,
  PromptPatch,
  PromptStore,
  RecordStore,
  Store,
  StoredRecord,
} from './store/store.ts';
export { PAGE_PROMPT_IDS } from './store/store.ts';
export { listPromptsByUserAndState } from './store/user-prompts.ts';
export {
  type AnyTool,
  type ApprovalCheck,
  type ApprovalRequirement,
  type BoundCreateTool,
  type BoundToolDefinition,
  createTool,
  type JsonSchema,
  type Tool,
  type ToolDefinition,
  type ToolEmitter,
  type ToolInput,
  type ToolInputExtensions,
} from './tools/create-tool.ts';
export { type CallSuspension, isCallSuspension, suspendCall } from './tools/suspend-call.ts';
export { CORE_VERSION } from './version.ts';
