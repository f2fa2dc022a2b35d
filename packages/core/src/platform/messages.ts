import { NotFoundError, TesseraError } from '../errors.ts';
import { eventScope } from '../events/events.ts';
import { newId } from '../ids.ts';
import { isoNow as now } from '../iso-now.ts';
import { refuseFull } from '../loop/conversation-size.ts';
import { mark } from '../loop/round-caches.ts';
import { ModelClass } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { MessageOptions, PlatformMessages, SentMessage } from '../plugins/define-plugin.ts';
import type { MessageStore } from '../store/store.ts';
import type { PlatformContext } from './context.ts';

/**
 * A conversation keeps at most this many waiting messages: every round boundary that looks for steering, and
 * every listing, reads them all, and a prompt waiting for approval may hold them back for ever.
 */
export const MAX_WAITING_MESSAGES = 100;

/** Steering and follow-up messages (see `PlatformMessages`): kept in `Store.messages` until delivered. */
export function platformMessages(ctx: PlatformContext): PlatformMessages {
  const { events, runtime, deliveries, runs } = ctx;
  // A message sent (here, or in another process through the relay) or back to waiting marks its
  // conversation: steering reaches a prompt running here at its next round boundary, and a prompt's end
  // looks for the next message (RoundCaches).
  events.subscribe({}, (event) => {
    if (event.type !== 'message.queued') return;
    const { conversationId, mode } = event.message;
    mark(runtime.caches.messages, conversationId);
    if (mode === 'steer') mark(runtime.caches.steering, conversationId);
  });
  // What became of the messages sent from here, wherever it happened (here, or another process).
  events.subscribe({}, (event) => {
    if (event.type === 'prompt.steered') {
      deliveries.settle(event.messageId, { type: 'steering', promptId: event.promptId });
    } else if (event.type === 'message.removed') {
      deliveries.settle(event.messageId, { type: 'removed' });
    } else if (event.type === 'prompt.started' && deliveries.has(event.promptId)) {
      // One this process starts is settled with its run once started (context.ts); this is another's.
      if (!runs.has(event.promptId)) {
        deliveries.settle(event.promptId, { type: 'prompt-elsewhere', promptId: event.promptId });
      }
    }
  });

  const messageStore = (): MessageStore => {
    const { messages } = ctx.store;
    if (!messages) {
      throw new TesseraError(
        'not_supported',
        'This store keeps no waiting messages (Store.messages): steering and follow-ups need it.',
      );
    }
    return messages;
  };

  return {
    async send(message: MessageOptions): Promise<SentMessage> {
      await ctx.conversationOf(message.conversationId, message.userId);
      refuseFull(runtime, message);
      if (typeof message.input !== 'string' || message.input.trim() === '') {
        throw new TesseraError('invalid_input', 'A message needs input text.');
      }
      if (message.mode !== 'steer' && message.mode !== 'queue') {
        throw new TesseraError('invalid_input', "A message's mode is 'steer' or 'queue'.");
      }
      if (message.model !== undefined && !ModelClass.safeParse(message.model).success) {
        throw new TesseraError(
          'invalid_input',
          `A message's model class is one of ${ModelClass.options.join(', ')}.`,
        );
      }
      const store = messageStore();
      const tooMany = () =>
        new TesseraError(
          'too_many_messages',
          `Conversation ${message.conversationId} already has ${MAX_WAITING_MESSAGES} messages waiting: wait for them to run, or remove some.`,
        );
      if ((await store.list(message.conversationId)).length >= MAX_WAITING_MESSAGES) throw tooMany();
      const queued: QueuedMessage = {
        id: newId('msg'),
        conversationId: message.conversationId,
        userId: message.userId,
        mode: message.mode,
        input: message.input,
        ...(message.model !== undefined && { model: message.model }),
        ...(message.metadata !== undefined && { metadata: message.metadata }),
        createdAt: now(),
      };
      // What becomes of it may happen in another process: its conversation is followed until it settles.
      const unfollow = ctx.events.follow(`conversation:${queued.conversationId}`);
      const delivery = ctx.deliveries.watch(queued.id, queued.conversationId).finally(unfollow);
      try {
        await store.add(queued);
        // Counted again once stored: sends at the same moment all passed the count above. One that finds too
        // many takes itself back; the messages kept were each counted after all the others kept were stored.
        // (Gone already, it was delivered meanwhile: it stands.)
        if ((await store.list(queued.conversationId)).length > MAX_WAITING_MESSAGES) {
          const removed = await store.remove(queued.conversationId, [queued.id]);
          if (removed.length > 0) throw tooMany();
        }
      } catch (error) {
        ctx.deliveries.settle(queued.id, { type: 'removed' });
        throw error;
      }
      ctx.events.publish({ type: 'message.queued', ...eventScope(queued), message: queued });
      const run = await ctx.nextMessage(message.conversationId);
      return run ? { message: queued, run, delivery } : { message: queued, delivery };
    },

    async list(conversationId: string, userId: string): Promise<QueuedMessage[]> {
      await ctx.conversationOf(conversationId, userId);
      return messageStore().list(conversationId);
    },

    async remove(messageId: string, by: { userId: string; conversationId: string }): Promise<void> {
      await ctx.conversationOf(by.conversationId, by.userId);
      const removed = await messageStore().remove(by.conversationId, [messageId]);
      if (removed.length === 0) {
        throw new NotFoundError(`There is no waiting message ${messageId} (it may have been delivered).`);
      }
      ctx.events.publish({ type: 'message.removed', ...eventScope({ id: messageId, ...by }), messageId });
    },
  };
}
