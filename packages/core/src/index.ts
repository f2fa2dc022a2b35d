export * from './errors.ts';
export type { EventFilter, EventHandler, StreamOptions } from './events/event-bus.ts';
export { EventBus } from './events/event-bus.ts';
export type { EventOf, TesseraEvent, TesseraEventType } from './events/events.ts';
export type { EventRelay, RelayMessage } from './events/relay.ts';
export { newId } from './ids.ts';
export {
  type BudgetRaise,
  budgetsOf,
  RAISABLE_BUDGETS,
  type RaisableBudget,
  type ReachedBudget,
} from './loop/budgets.ts';
export { type LoopStep, planStep } from './loop/plan.ts';
export type { OfferedTool } from './loop/prepare-round.ts';
export { PromptCompletion, type RunOptions } from './loop/prompt-completion.ts';
export {
  type Budgets,
  DEFAULT_BUDGETS,
  type DoomLoopOptions,
  type LoopOptions,
  type Runtime,
} from './loop/runtime.ts';
export { Conversation } from './model/conversation.ts';
export {
  GuardrailOutput,
  ModelCallFacts,
  type NewOutput,
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
export {
  emptyUsage,
  FINAL_PROMPT_STATES,
  isFinalState,
  ModelClass,
  OutputBase,
  type Prompt,
  type PromptRecord,
  PromptSchema,
  PromptState,
  PromptUsage,
  StopReason,
} from './model/prompt.ts';
export type { QueuedMessage } from './model/queued-message.ts';
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
export { createPlatform } from './platform/create-platform.ts';
export type {
  MessageDelivery,
  MessageOptions,
  PauseDecision,
  Platform,
  PlatformConversations,
  PlatformEvents,
  PlatformMessages,
  PlatformOptions,
  PromptRun,
  SendOptions,
  SentMessage,
  StartedPrompt,
  ToolCallDecision,
} from './platform/platform.ts';
export {
  type AnyPlugin,
  CONTEXT_ORDER,
  type ContextItem,
  type ConversationDeletedContext,
  definePlugin,
  isPlugin,
  type Plugin,
  type PluginDefinition,
  type PluginStartContext,
  type PluginStopContext,
  type PrepareContext,
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
export type { PluginState } from './plugins/plugin-state.ts';
export {
  boundText,
  DEFAULT_MAX_RESULT_CHARS,
  ProjectionCache,
  type ProjectionOptions,
  projectPrompt,
  promptsToMessages,
} from './projection/prompts-to-messages.ts';
export { withheldNote } from './projection/withheld.ts';
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
export {
  createServiceContainer,
  type DependencyContainer,
  type InjectionToken,
  PlatformToken,
  StoreToken,
} from './services.ts';
export { createMemoryStore, MemoryStore } from './store/memory-store.ts';
export type {
  ConversationStore,
  MessageStore,
  Page,
  PageOptions,
  PromptPatch,
  PromptStore,
  RecordStore,
  Store,
  StoredRecord,
} from './store/store.ts';
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
export { CORE_VERSION } from './version.ts';
