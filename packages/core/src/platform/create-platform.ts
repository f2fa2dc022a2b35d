import { NotFoundError, PluginError } from '../errors.ts';
import { bridgeRelay } from '../events/relay.ts';
import { ConversationStates } from '../loop/plugin-state.ts';
import type { PluginState } from '../model/plugin-state.ts';
import type { AnyPlugin, Platform, Plugin } from '../plugins/define-plugin.ts';
import { cancelPrompt } from './cancellation.ts';
import { createContext, type PlatformContext } from './context.ts';
import { platformConversations } from './conversations.ts';
import { decideCall, decidePause } from './decisions.ts';
import { platformMessages } from './messages.ts';
import { offeredTools } from './offered-tools.ts';
import { watchOrphans } from './orphan-watcher.ts';
import type { PlatformOptions } from './platform.ts';
import { pluginLifecycle } from './plugin-lifecycle.ts';
import { recoverPrompts, sendPrompt, startPrompt } from './prompt-runs.ts';
import { PlatformToken, StoreToken } from './services.ts';

/**
 * Composes plugins, a model provider and a store into a running platform: conversations, prompts,
 * approvals and events. What each member does is documented on `Platform` (./platform.ts); each part is a
 * module of its own: conversations.ts, prompt-runs.ts, decisions.ts, cancellation.ts, messages.ts.
 *
 * @throws {DefinitionError} naming the plugin, when two plugins share an id, a tool id or an output type is
 * defined twice, a plugin `requires` one that is not in the set or plugins require each other in a cycle,
 * or a plugin's `core` range does not include this core's version.
 * @example
 * ```ts
 * const platform = createPlatform({ plugins: [notesPlugin], model: createOpenAIProvider() });
 * const conversation = await platform.conversations.create({ userId: 'ada' });
 * const prompt = await platform.send({ conversationId: conversation.id, userId: 'ada', input: 'Hi' });
 * ```
 */
export function createPlatform(options: PlatformOptions): Platform {
  const ctx: PlatformContext = createContext(options, (send) => startPrompt(ctx, send));
  const { store, events, runs, runtime, relay } = ctx;
  const { services, plugins } = runtime;
  const unbridge =
    relay && bridgeRelay(relay, events, (promptId) => void runs.abort(promptId).catch(() => {}));
  // Stops the periodic recovery (watchOrphans) when the platform closes.
  const closed = new AbortController();
  let watcher: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const platform: Platform = {
    services,
    events,
    store,
    outputs: runtime.outputs,
    plugins,
    model: options.model,
    conversations: platformConversations(ctx),
    messages: platformMessages(ctx),
    getPrompt: (promptId, userId) => ctx.getPrompt(promptId, userId),
    start: (send) => sendPrompt(ctx, send),
    send: async (send) => (await sendPrompt(ctx, send)).done,
    decide: (id, decision) =>
      'choice' in decision ? decidePause(ctx, id, decision) : decideCall(ctx, id, decision),
    approve: async (toolCallId, by) => (await decideCall(ctx, toolCallId, { ...by, approve: true })).done,
    reject: async (toolCallId, by) => (await decideCall(ctx, toolCallId, { ...by, approve: false })).done,
    resume: async (pauseId, decision) => (await decidePause(ctx, pauseId, decision)).done,
    cancel: (promptId, by) => cancelPrompt(ctx, promptId, by),
    recover: () => recoverPrompts(ctx),
    pluginState: (conversationId, plugin) => pluginState(ctx, conversationId, plugin),
    offeredTools: (conversationId, userId, options) => offeredTools(ctx, conversationId, userId, options),
    async open() {
      await lifecycle.open();
      // Other processes exist only for a store they share, which is what offers a relay.
      watcher ??= watchOrphans(
        async () => {
          for (const run of await platform.recover()) run.done.catch(ctx.reportRecoveryError);
        },
        options.recoverEveryMs ?? (store.relay ? 2_000 : 0),
        ctx.reportRecoveryError,
        closed.signal,
      );
    },
    close(): Promise<void> {
      closing ??= (async () => {
        closed.abort();
        await watcher;
        await lifecycle.close();
        await runs.abortAll();
        ctx.deliveries.closeAll();
        unbridge?.();
        await store.close?.();
      })();
      return closing;
    },
  };
  const reportPluginError = options.onPluginError ?? ((error: PluginError) => console.error(error));
  const lifecycle = pluginLifecycle(
    ctx.startOrder,
    (plugin, signal) => ({
      platform,
      services,
      signal,
      reportError: (error) => reportPluginError(new PluginError(plugin.id, error, 'background')),
    }),
    { platform, services },
    reportPluginError,
  );
  for (const plugin of plugins) plugin.services?.(services);
  services.register(StoreToken, { useValue: store });
  services.register(PlatformToken, { useValue: platform });
  return platform;
}

/** `platform.pluginState()`: a plugin's state in a conversation, migrated first, for the app. */
async function pluginState<T>(
  ctx: PlatformContext,
  conversationId: string,
  plugin: Plugin<T>,
): Promise<PluginState<T>> {
  const conversation = await ctx.store.conversations.get(conversationId);
  if (!conversation) throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
  const states = new ConversationStates(ctx.store, conversation);
  await states.migrate([plugin as AnyPlugin]);
  return states.for<T>(plugin as AnyPlugin);
}
