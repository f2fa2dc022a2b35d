import { NotFoundError } from '../errors.ts';
import { EventBus } from '../events/event-bus.ts';
import type { EventRelay } from '../events/relay.ts';
import { HookTable } from '../loop/hook-table.ts';
import { RoundCaches } from '../loop/round-caches.ts';
import { DEFAULT_BUDGETS, type Runtime } from '../loop/runtime.ts';
import type { Conversation } from '../model/conversation.ts';
import { isFinalState, type Prompt } from '../model/prompt.ts';
import { OutputRegistry } from '../outputs/output-registry.ts';
import type { AnyPlugin, PromptRun, SendOptions } from '../plugins/define-plugin.ts';
import { DEFAULT_MAX_RESULT_CHARS, ProjectionCache } from '../projection/prompts-to-messages.ts';
import { MemoryStore } from '../store/memory-store.ts';
import type { Store } from '../store/store.ts';
import { checkComposition } from './check-composition.ts';
import { type ConversationBounds, conversationBounds } from './conversation-bounds.ts';
import { oneAtATime, startNextMessage } from './follow-ups.ts';
import { LocalRuns } from './local-runs.ts';
import { MessageDeliveries } from './message-deliveries.ts';
import type { PlatformOptions } from './platform.ts';
import { createServiceContainer } from './services.ts';

/** What the parts of a platform share: its runtime, its runs in this process, and a few helpers. */
export type PlatformContext = {
  options: PlatformOptions;
  /** Plugins in the order they start (after those they require). */
  startOrder: readonly AnyPlugin[];
  store: Store;
  events: EventBus;
  runtime: Runtime;
  runs: LocalRuns;
  relay: EventRelay | undefined;
  /** Keeps creates and forks within `maxConversations` and `maxBranches`. */
  bounds: ConversationBounds;
  /** Starts the conversation's next waiting message, if nothing of it is active (see follow-ups.ts). */
  nextMessage(conversationId: string): Promise<PromptRun | undefined>;
  /** What became of the messages sent from here: settled as they run, reach a prompt, or are removed. */
  deliveries: MessageDeliveries;
  reportRecoveryError: (error: unknown) => void;
  /** The conversation, if it is the user's; else `NotFoundError`. */
  conversationOf(conversationId: string, userId: string): Promise<Conversation>;
  /** The conversation with its history (oldest first), if it is the user's; else `NotFoundError`. */
  conversationWithHistory(
    conversationId: string,
    userId: string,
  ): Promise<{ conversation: Conversation; history: Prompt[] }>;
  /** The prompt, if it is the user's; else `NotFoundError`. */
  getPrompt(promptId: string, userId: string): Promise<Prompt>;
  /** A loop's `done`, which, once the prompt ends (not when it pauses), runs the conversation's next message. */
  track(done: Promise<Prompt>): Promise<Prompt>;
};

/** Composes the options into a platform's shared parts; `start` starts a prompt (for follow-ups). */
export function createContext(
  options: PlatformOptions,
  start: (send: SendOptions) => Promise<PromptRun>,
): PlatformContext {
  const plugins = options.plugins ?? [];
  const outputs = new OutputRegistry();
  const startOrder = checkComposition(plugins, outputs);
  const store: Store = options.store ?? new MemoryStore();
  const events = new EventBus({ onHandlerError: options.onSubscriberError });
  // Everything a prompt's loop needs, built once per platform.
  const runtime: Runtime = {
    store,
    provider: options.model,
    plugins,
    outputs,
    bus: events,
    services: createServiceContainer(options.services),
    projectionCache: new ProjectionCache(),
    caches: new RoundCaches(),
    hooks: new HookTable(plugins),
    options: {
      budgets: { ...DEFAULT_BUDGETS, ...options.budgets },
      models: { normal: 'normal', high: 'high', ...options.models },
      instructions: options.instructions,
      toolTimeoutMs: options.toolTimeoutMs ?? 120_000,
      maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
      historyTokens: options.historyTokens,
      maxConversationChars: options.maxConversationChars,
    },
  };
  const reportRecoveryError = options.onRecoveryError ?? ((error: unknown) => console.error(error));
  const deliveries = new MessageDeliveries();
  // One look at a time per conversation (see oneAtATime).
  const nextMessage = oneAtATime((conversationId: string) =>
    startNextMessage(
      store,
      conversationId,
      async (message) => {
        const run = await start({
          conversationId: message.conversationId,
          userId: message.userId,
          input: message.input,
          promptId: message.id,
          model: message.model,
          metadata: message.metadata,
        });
        deliveries.settle(message.id, { type: 'prompt', run });
        return run;
      },
      runtime.caches,
    ),
  );
  return {
    options,
    startOrder,
    store,
    events,
    runtime,
    runs: new LocalRuns(),
    relay: options.relay ?? store.relay,
    bounds: conversationBounds(store, options),
    nextMessage,
    deliveries,
    reportRecoveryError,
    async conversationOf(conversationId, userId) {
      const conversation = await store.conversations.get(conversationId);
      if (!conversation || conversation.userId !== userId) {
        throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
      }
      return conversation;
    },
    async conversationWithHistory(conversationId, userId) {
      const read = store.conversations.getWithHistory;
      if (read) {
        const found = await read.call(store.conversations, conversationId, userId);
        if (!found) throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
        return found as { conversation: Conversation; history: Prompt[] };
      }
      const conversation = await this.conversationOf(conversationId, userId);
      // A conversation's first prompt has no history to read (its prompt ids came with the conversation).
      const history =
        conversation.promptIds.length === 0
          ? []
          : ((await store.prompts.listByConversation(conversation.id)) as Prompt[]);
      return { conversation, history };
    },
    async getPrompt(promptId, userId) {
      const prompt = (await store.prompts.get(promptId)) as Prompt | undefined;
      if (!prompt || prompt.userId !== userId) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
      return prompt;
    },
    track: (done) =>
      done.then((prompt) => {
        // Only a conversation marked as maybe having messages is asked (RoundCaches.messages): most have none.
        if (isFinalState(prompt.state) && runtime.caches.messages.has(prompt.conversationId))
          void nextMessage(prompt.conversationId).catch(reportRecoveryError);
        return prompt;
      }),
  };
}
