import { ConflictError, NotFoundError, PluginError, TesseraError } from '../errors.ts';
import { EventBus } from '../events/event-bus.ts';
import { isLoopEndEvent } from '../events/events.ts';
import { bridgeRelay, type EventRelay } from '../events/relay.ts';
import { newId } from '../ids.ts';
import { isoNow } from '../iso-now.ts';
import { decidedCall, staticTool } from '../loop/approval.ts';
import { HookTable } from '../loop/hook-table.ts';
import { ConversationStates } from '../loop/plugin-state.ts';
import { RoundCaches } from '../loop/prepare-round.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import { DEFAULT_BUDGETS, type LoopOptions, type Runtime } from '../loop/runtime.ts';
import { presentConversation } from '../loop/stored-state.ts';
import { toolError } from '../loop/tool-result.ts';
import type { Conversation } from '../model/conversation.ts';
import type { PauseOutput, PromptOutput, ToolOutput } from '../model/outputs.ts';
import {
  emptyUsage,
  isFinalState,
  type OutputBase,
  type Prompt,
  type PromptRecord,
} from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import { OutputRegistry } from '../outputs/output-registry.ts';
import type { AnyPlugin, Plugin } from '../plugins/define-plugin.ts';
import type { PluginState } from '../plugins/plugin-state.ts';
import { DEFAULT_MAX_RESULT_CHARS, ProjectionCache } from '../projection/prompts-to-messages.ts';
import { createServiceContainer, PlatformToken, StoreToken } from '../services.ts';
import { MemoryStore } from '../store/memory-store.ts';
import type { MessageStore, Page, PageOptions, Store } from '../store/store.ts';
import { checkComposition } from './check-composition.ts';
import { FollowUps } from './follow-ups.ts';
import { LocalRuns } from './local-runs.ts';
import { OrphanWatcher } from './orphan-watcher.ts';
import type {
  MessageOptions,
  PauseDecision,
  Platform,
  PlatformOptions,
  PromptRun,
  SendOptions,
  SentMessage,
  ToolCallDecision,
} from './platform.ts';
import { PluginLifecycle } from './plugin-lifecycle.ts';

const now = isoNow;
/** Ids chosen by callers stay safe in URLs, paths and logs. */
const PROMPT_ID = /^[\w-]{1,100}$/;

/**
 * Composes plugins, a model provider and a store into a running platform: conversations, prompts,
 * approvals and events. What each member does is documented on `Platform` (./platform.ts).
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
  const plugins = options.plugins ?? [];
  const outputs = new OutputRegistry();
  const startOrder = checkComposition(plugins, outputs);
  const store: Store = options.store ?? new MemoryStore();
  const services = createServiceContainer(options.services);
  const events = new EventBus({ onHandlerError: options.onSubscriberError });
  const loopOptions: LoopOptions = {
    budgets: { ...DEFAULT_BUDGETS, ...options.budgets },
    models: { normal: 'normal', high: 'high', ...options.models },
    instructions: options.instructions,
    toolTimeoutMs: options.toolTimeoutMs ?? 120_000,
    maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    historyTokens: options.historyTokens,
    doomLoop: options.doomLoop === false ? false : { repeats: 3, ...options.doomLoop },
  };
  const runtime: Runtime = {
    store,
    provider: options.model,
    plugins,
    outputs,
    bus: events,
    services,
    projectionCache: new ProjectionCache(),
    caches: new RoundCaches(),
    hooks: new HookTable(plugins),
    options: loopOptions,
  };
  const runs = new LocalRuns();
  const relay = options.relay ?? store.relay;
  // Steering sent in another process reaches a prompt this one runs at its next round boundary.
  if (relay) {
    events.subscribe({}, (event) => {
      if (event.type === 'message.queued' && event.message.mode === 'steer') {
        runtime.caches.steering.add(event.message.conversationId);
      }
    });
  }
  const unbridge =
    relay && bridgeRelay(relay, events, (promptId) => void runs.abort(promptId).catch(() => {}));

  /** Asks the process running `promptId` to cancel it, and resolves once its loop stopped (or the wait ran out). */
  async function cancelElsewhere(relay: EventRelay, promptId: string): Promise<void> {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.remoteCancelTimeoutMs ?? 10_000);
      const unsubscribe = events.subscribe({ promptId }, (event) => {
        if (isLoopEndEvent(event)) resolve();
      });
      stop = () => {
        clearTimeout(timer);
        unsubscribe();
      };
    });
    try {
      // It may have stopped before we listened.
      if ((await store.prompts.get(promptId))?.state !== 'running') return;
      relay.publish({ kind: 'cancel', promptId });
      await stopped;
    } finally {
      stop();
    }
  }

  /**
   * Stops, here and at once, a running prompt whose process died (the store hands it over): its loop ends
   * `cancelled` without calling the model. Resolves with `undefined` when the prompt is not such an orphan.
   */
  async function cancelOrphan(promptId: string): Promise<Prompt | undefined> {
    if (!runs.reserve(promptId)) return undefined;
    try {
      if (!(await store.prompts.claimOrphan(promptId))) {
        runs.release(promptId);
        return undefined;
      }
      const completion = await PromptCompletion.load(runtime, promptId);
      return await track(runs.run(promptId, (signal) => completion.run({ signal }), AbortSignal.abort()));
    } catch (error) {
      runs.release(promptId);
      throw error;
    }
  }

  async function conversationOf(conversationId: string, userId: string): Promise<Conversation> {
    const conversation = await store.conversations.get(conversationId);
    if (!conversation || conversation.userId !== userId) {
      throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
    }
    return conversation;
  }

  /** The pending call `toolCallId` of a prompt owned by `userId`, or a clear error. */
  async function pendingCall(toolCallId: string, userId: string) {
    const prompt = (await store.prompts.findByToolCall(toolCallId)) as Prompt | undefined;
    const output = prompt?.output.find((o): o is ToolOutput => o.type === 'tool' && o.id === toolCallId);
    if (!prompt || !output || prompt.userId !== userId) {
      throw new NotFoundError(`There is no tool call ${toolCallId}.`);
    }
    if (output.result?.type !== 'pending' || prompt.state !== 'waiting_for_approval') {
      throw new ConflictError(`Tool call ${toolCallId} is not waiting for approval: it was already decided.`);
    }
    return { prompt, output };
  }

  /**
   * Applies a decision (on a call or a pause) atomically, only if the prompt still waits, then resumes the
   * loop; `approved` is the id of a call to run now.
   */
  async function applyDecision(prompt: Prompt, decided: OutputBase, approved?: string): Promise<PromptRun> {
    const alreadyDecided = () =>
      new ConflictError(`${decided.id} is not waiting for a decision: it was already decided.`);
    // Reserved before the claim sets it running, so that a periodic recovery here leaves it to this loop.
    if (!runs.reserve(prompt.id)) throw alreadyDecided();
    try {
      const claimed = await store.prompts.update(
        prompt.id,
        { state: 'running', outputs: [decided] },
        { expectState: ['waiting_for_approval'] },
      );
      if (!claimed) throw alreadyDecided();
      const scope = { promptId: prompt.id, conversationId: prompt.conversationId, userId: prompt.userId };
      events.publish({ ...scope, type: 'prompt.output-updated', output: decided as PromptOutput });
      events.publish({ ...scope, type: 'prompt.resumed', state: 'running' });
      const completion = await PromptCompletion.load(runtime, prompt.id);
      const done = track(runs.run(prompt.id, (signal) => completion.run({ signal, approved })));
      return { prompt: completion.prompt, done };
    } catch (error) {
      runs.release(prompt.id);
      throw error;
    }
  }

  /** The pending pause `pauseId` of a prompt owned by `userId`, or a clear error. */
  async function pendingPause(pauseId: string, userId: string) {
    const prompt = (await store.prompts.findByToolCall(pauseId)) as Prompt | undefined;
    const pause = prompt?.output.find((o): o is PauseOutput => o.type === 'pause' && o.id === pauseId);
    if (!prompt || !pause || prompt.userId !== userId)
      throw new NotFoundError(`There is no pause ${pauseId}.`);
    if (pause.decision || prompt.state !== 'waiting_for_approval') {
      throw new ConflictError(`Pause ${pauseId} is not waiting for a decision: it was already decided.`);
    }
    return { prompt, pause };
  }

  const messageStore = (): MessageStore => {
    if (!store.messages) {
      throw new TesseraError(
        'not_supported',
        'This store keeps no waiting messages (Store.messages): steering and follow-ups need it.',
      );
    }
    return store.messages;
  };
  const messageScope = (message: QueuedMessage) => ({
    promptId: message.id,
    conversationId: message.conversationId,
    userId: message.userId,
  });
  const followUps = new FollowUps(store, (message) =>
    platform.start({
      conversationId: message.conversationId,
      userId: message.userId,
      input: message.input,
      promptId: message.id,
    }),
  );
  /** When a prompt's loop ends (not when it pauses), the conversation's next waiting message runs. */
  const track = (done: Promise<Prompt>): Promise<Prompt> =>
    done.then((prompt) => {
      if (isFinalState(prompt.state)) void followUps.next(prompt.conversationId).catch(reportRecoveryError);
      return prompt;
    });

  const reportPluginError = options.onPluginError ?? ((error: PluginError) => console.error(error));
  const reportRecoveryError = options.onRecoveryError ?? ((error: unknown) => console.error(error));
  // Other processes exist only for a store they share, which is what offers a relay.
  const watcher = new OrphanWatcher(
    async () => {
      for (const run of await platform.recover()) run.done.catch(reportRecoveryError);
    },
    options.recoverEveryMs ?? (store.relay ? 2_000 : 0),
    reportRecoveryError,
  );
  let closing: Promise<void> | undefined;

  const platform: Platform = {
    services,
    events,
    store,
    outputs,
    plugins,
    model: options.model,

    conversations: {
      async create(input: { userId: string; title?: string }): Promise<Conversation> {
        if (!input.userId) throw new TesseraError('invalid_input', 'A conversation needs a userId.');
        const at = now();
        const conversation: Conversation = {
          id: newId('conv'),
          userId: input.userId,
          ...(input.title !== undefined && { title: input.title }),
          promptIds: [],
          pluginState: {},
          createdAt: at,
          updatedAt: at,
        };
        await store.conversations.create(conversation);
        return conversation;
      },
      get: async (conversationId: string, userId: string): Promise<Conversation> =>
        presentConversation(await conversationOf(conversationId, userId)),
      async list(userId: string, page?: PageOptions): Promise<Page<Conversation>> {
        const listed = await store.conversations.listByUser(userId, page);
        return { ...listed, items: listed.items.map(presentConversation) };
      },
      async prompts(conversationId: string, userId: string): Promise<Prompt[]> {
        await conversationOf(conversationId, userId);
        return (await store.prompts.listByConversation(conversationId)) as Prompt[];
      },
      async rename(conversationId: string, userId: string, title: string): Promise<Conversation> {
        await conversationOf(conversationId, userId);
        const trimmed = typeof title === 'string' ? title.trim() : '';
        if (trimmed.length === 0 || trimmed.length > 200) {
          throw new TesseraError('invalid_input', 'A title is 1-200 characters.');
        }
        await store.conversations.rename(conversationId, trimmed);
        return presentConversation(await conversationOf(conversationId, userId));
      },
      async delete(conversationId: string, userId: string): Promise<void> {
        const conversation = await conversationOf(conversationId, userId);
        await Promise.all(conversation.promptIds.map((id) => runs.abort(id)));
        // Plugins first: if one fails, the conversation is still there and the deletion can be retried.
        for (const plugin of plugins) {
          await plugin.conversationDeleted?.({ conversationId, userId: conversation.userId, services });
        }
        await store.conversations.delete(conversationId);
      },
    },

    async getPrompt(promptId: string, userId: string): Promise<Prompt> {
      const prompt = (await store.prompts.get(promptId)) as Prompt | undefined;
      if (!prompt || prompt.userId !== userId) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
      return prompt;
    },

    async start(send: SendOptions): Promise<PromptRun> {
      const conversation = await conversationOf(send.conversationId, send.userId);
      if (send.input !== undefined && typeof send.input !== 'string') {
        throw new TesseraError('invalid_input', 'The input must be a string.');
      }
      if (send.promptId !== undefined && !PROMPT_ID.test(send.promptId)) {
        throw new TesseraError('invalid_input', 'A prompt id is 1-100 of A-Z, a-z, 0-9, _ and -.');
      }
      const history = (await store.prompts.listByConversation(conversation.id)) as Prompt[];
      const at = now();
      const record: PromptRecord = {
        id: send.promptId ?? newId('prm'),
        conversationId: conversation.id,
        userId: send.userId,
        model: send.model ?? 'normal',
        visible: send.visible ?? true,
        state: 'running',
        ...(send.input !== undefined && { input: send.input }),
        output: (send.outputs ?? []).map((output) =>
          outputs.validate({ ...output, id: output.id ?? newId('out'), createdAt: at } as OutputBase),
        ),
        usage: emptyUsage(),
        ...(send.metadata && { metadata: send.metadata }),
        createdAt: at,
        updatedAt: at,
      };
      // Reserved before it exists, so that a periodic recovery here never takes it for an orphan.
      if (!runs.reserve(record.id)) throw new ConflictError(`Prompt ${record.id} already exists.`);
      try {
        await store.prompts.create(record);
      } catch (error) {
        runs.release(record.id);
        throw error;
      }
      const prompt = record as Prompt;
      events.publish({
        type: 'prompt.started',
        promptId: prompt.id,
        conversationId: conversation.id,
        userId: prompt.userId,
        prompt,
      });
      const completion = new PromptCompletion(runtime, prompt, conversation, history);
      const done = track(runs.run(prompt.id, (signal) => completion.run({ signal }), send.signal));
      return { prompt, done };
    },

    async send(send: SendOptions): Promise<Prompt> {
      return (await platform.start(send)).done;
    },

    async decide(toolCallId: string, decision: ToolCallDecision): Promise<PromptRun> {
      const { prompt, output } = await pendingCall(toolCallId, decision.userId);
      let tool = staticTool(plugins, output.toolId);
      // A tool a plugin offers from prepare(): the round it would run in says what its schema is.
      if (!tool && decision.approve && decision.input !== undefined) {
        tool = await (await PromptCompletion.load(runtime, prompt.id)).offeredTool(output.toolId);
      }
      const decided = decidedCall(output, decision, tool, now());
      return applyDecision(prompt, decided, decision.approve ? decided.id : undefined);
    },

    async approve(toolCallId: string, by: { userId: string; input?: unknown }): Promise<Prompt> {
      return (await platform.decide(toolCallId, { ...by, approve: true })).done;
    },

    async reject(toolCallId: string, by: { userId: string; reason?: string }): Promise<Prompt> {
      return (await platform.decide(toolCallId, { ...by, approve: false })).done;
    },

    async resume(pauseId: string, decision: PauseDecision): Promise<PromptRun> {
      const { prompt, pause } = await pendingPause(pauseId, decision.userId);
      if (decision.choice !== 'continue' && decision.choice !== 'stop') {
        throw new TesseraError('invalid_input', "A pause's choice is 'continue' or 'stop'.");
      }
      const decided = { ...pause, decision: decision.choice, decidedBy: decision.userId, decidedAt: now() };
      const run = await applyDecision(prompt, decided);
      events.publish({
        type: 'prompt.pause-decided',
        promptId: prompt.id,
        conversationId: prompt.conversationId,
        userId: prompt.userId,
        outputId: pauseId,
        choice: decision.choice,
        decidedBy: decision.userId,
      });
      return run;
    },

    messages: {
      async send(message: MessageOptions): Promise<SentMessage> {
        await conversationOf(message.conversationId, message.userId);
        if (typeof message.input !== 'string' || message.input.trim() === '') {
          throw new TesseraError('invalid_input', 'A message needs input text.');
        }
        if (message.mode !== 'steer' && message.mode !== 'queue') {
          throw new TesseraError('invalid_input', "A message's mode is 'steer' or 'queue'.");
        }
        const queued: QueuedMessage = {
          id: newId('msg'),
          conversationId: message.conversationId,
          userId: message.userId,
          mode: message.mode,
          input: message.input,
          createdAt: now(),
        };
        await messageStore().add(queued);
        if (queued.mode === 'steer') runtime.caches.steering.add(queued.conversationId);
        events.publish({ type: 'message.queued', ...messageScope(queued), message: queued });
        const run = await followUps.next(message.conversationId);
        return run ? { message: queued, run } : { message: queued };
      },
      async list(conversationId: string, userId: string): Promise<QueuedMessage[]> {
        await conversationOf(conversationId, userId);
        return messageStore().list(conversationId);
      },
      async remove(messageId: string, by: { userId: string; conversationId: string }): Promise<void> {
        await conversationOf(by.conversationId, by.userId);
        const removed = await messageStore().remove(by.conversationId, [messageId]);
        if (removed.length === 0) {
          throw new NotFoundError(`There is no waiting message ${messageId} (it may have been delivered).`);
        }
        events.publish({
          type: 'message.removed',
          promptId: messageId,
          conversationId: by.conversationId,
          userId: by.userId,
          messageId,
        });
      },
    },

    async cancel(promptId: string, by: { userId: string }): Promise<Prompt> {
      const prompt = await platform.getPrompt(promptId, by.userId);
      if (runs.has(promptId)) return (await runs.abort(promptId)) ?? platform.cancel(promptId, by);
      if (prompt.state === 'running' && store.relay) {
        // Its process died (only a store that processes share, one with a relay, can tell): stopped here at
        // once, rather than asking a process that cannot answer.
        const orphan = await cancelOrphan(promptId);
        // (A process stopped just before pausing pauses it again: then its pending calls are closed below.)
        if (orphan) return orphan.state === 'waiting_for_approval' ? platform.cancel(promptId, by) : orphan;
      }
      if (prompt.state === 'running' && relay) {
        // Running in another process: ask it to stop, then report what it recorded.
        await cancelElsewhere(relay, promptId);
        const after = await platform.getPrompt(promptId, by.userId);
        if (after.state === 'waiting_for_approval') return platform.cancel(promptId, by);
        if (after.state === 'running') {
          throw new ConflictError(
            `Prompt ${promptId} runs in another process, which did not stop it in time.`,
          );
        }
        return after;
      }
      if (prompt.state !== 'waiting_for_approval') {
        throw new ConflictError(
          `Prompt ${promptId} is ${prompt.state}; only a running or waiting prompt can be cancelled here.`,
        );
      }
      const at = now();
      const closed: PromptOutput[] = [];
      for (const o of prompt.output) {
        if (o.type === 'tool' && (!o.result || o.result.type === 'pending')) {
          const result = toolError('cancelled', 'The prompt was cancelled before this call ran.');
          closed.push({ ...o, result, endedAt: at });
        } else if (o.type === 'pause' && !o.decision) {
          closed.push({ ...o, decision: 'stop', decidedBy: by.userId, decidedAt: at });
        }
      }
      const stopReason = { code: 'cancelled', message: 'Cancelled while waiting for approval.' };
      const applied = await store.prompts.update(
        promptId,
        { state: 'cancelled', stopReason, outputs: closed },
        { expectState: ['waiting_for_approval'] },
      );
      if (!applied)
        throw new ConflictError(`Prompt ${promptId} changed while it was being cancelled; try again.`);
      const updated = await platform.getPrompt(promptId, by.userId);
      const scope = { promptId, conversationId: prompt.conversationId, userId: prompt.userId };
      for (const output of closed) events.publish({ ...scope, type: 'prompt.output-updated', output });
      events.publish({ ...scope, type: 'prompt.cancelled', prompt: updated });
      // Cancelling a prompt leaves the conversation's waiting messages as they are: the next one runs now.
      void followUps.next(prompt.conversationId).catch(reportRecoveryError);
      return updated;
    },

    async recover(): Promise<PromptRun[]> {
      const claimed = await store.prompts.claimOrphans({ except: runs.ids() });
      // What this process started meanwhile (a send, an approval, a cancel, another recovery) stays with it.
      const orphans = claimed.filter((orphan) => runs.reserve(orphan.id));
      const resumed = await Promise.all(
        orphans.map(async (orphan): Promise<PromptRun | undefined> => {
          try {
            const completion = await PromptCompletion.load(runtime, orphan.id);
            // Its loop here ended between the claim and now.
            if (completion.prompt.state !== 'running') {
              runs.release(orphan.id);
              return undefined;
            }
            events.publish({
              type: 'prompt.resumed',
              promptId: orphan.id,
              conversationId: orphan.conversationId,
              userId: orphan.userId,
              state: 'running',
            });
            return {
              prompt: completion.prompt,
              done: track(runs.run(orphan.id, (signal) => completion.run({ signal }))),
            };
          } catch (error) {
            runs.release(orphan.id);
            throw error;
          }
        }),
      );
      // Messages that waited for a conversation whose prompt ended in a process that stopped.
      for (const conversationId of (await store.messages?.conversationsWithMessages()) ?? []) {
        const run = await followUps.next(conversationId);
        if (run) resumed.push(run);
      }
      return resumed.filter((run) => run !== undefined);
    },

    async pluginState<T>(conversationId: string, plugin: Plugin<T>): Promise<PluginState<T>> {
      const conversation = await store.conversations.get(conversationId);
      if (!conversation) throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
      const states = new ConversationStates(store, conversation);
      await states.migrate([plugin as AnyPlugin]);
      return states.for<T>(plugin as AnyPlugin);
    },

    open: () => lifecycle.open().then(() => watcher.start()),

    close(): Promise<void> {
      closing ??= (async () => {
        await watcher.stop();
        await lifecycle.close();
        await runs.abortAll();
        unbridge?.();
        await store.close?.();
      })();
      return closing;
    },
  };
  const lifecycle = new PluginLifecycle(
    startOrder,
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
