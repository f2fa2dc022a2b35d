import { OutputBase, PromptState, type TesseraEventType } from '@tessera/core';
import { z } from 'zod';
import { PauseSource, QueuedMessageSchema, ReachedBudget } from './loop-control-schemas.ts';
import { ConversationSchema, PromptBody } from './schemas.ts';
import type { UserEventType } from './user-events.ts';

/** What every event carries: the prompt (or, for `message.*`, the message) it is about, and whose it is. */
const scope = {
  promptId: z.string(),
  conversationId: z.string(),
  userId: z.string(),
};
const output = OutputBase.loose();

/**
 * The `data` of each event on a conversation's stream, one schema per core `TesseraEvent` type: keyed by
 * the type, so a new event type in core fails to compile here until the API describes it.
 */
const EVENTS: { [T in TesseraEventType]: z.ZodObject } = {
  'prompt.started': z.object({ prompt: PromptBody }),
  'prompt.output': z.object({ output }),
  'prompt.output-updated': z.object({ output }),
  'prompt.output-removed': z.object({ outputId: z.string() }),
  'prompt.text-delta': z.object({ outputId: z.string(), delta: z.string() }),
  'prompt.approval-requested': z.object({
    toolCallId: z.string(),
    toolId: z.string(),
    input: z.unknown(),
    reason: z.string(),
  }),
  'prompt.resumed': z.object({ state: PromptState }),
  'prompt.completed': z.object({ prompt: PromptBody }),
  'prompt.failed': z.object({ prompt: PromptBody }),
  'prompt.cancelled': z.object({ prompt: PromptBody }),
  'prompt.hook-failed': z.object({
    plugin: z.string(),
    hook: z.string(),
    message: z.string(),
    toolCallId: z.string().optional(),
  }),
  'prompt.guardrail-tripped': z.object({
    plugin: z.string(),
    guardrail: z.enum(['input', 'output']),
    reason: z.string(),
  }),
  'prompt.pause-requested': z.object({
    outputId: z.string().meta({ description: 'The pause to decide: POST /api/pauses/{outputId}/resume' }),
    source: PauseSource,
    plugin: z.string().optional(),
    budget: ReachedBudget.optional(),
    reason: z.string(),
  }),
  'prompt.pause-decided': z.object({
    outputId: z.string(),
    choice: z.enum(['continue', 'stop']),
    decidedBy: z.string(),
  }),
  'prompt.steered': z.object({ messageId: z.string(), outputId: z.string() }),
  'message.queued': z.object({ message: QueuedMessageSchema }),
  'message.removed': z.object({ messageId: z.string() }),
};

const DESCRIPTIONS: Partial<Record<TesseraEventType, string>> = {
  'prompt.cancelled': 'The prompt was cancelled (by the user, or its conversation was deleted).',
  'prompt.hook-failed': "A plugin's hook, guardrail or permission policy threw; what it led to is recorded.",
  'prompt.guardrail-tripped':
    "A plugin's guardrail tripped: the prompt ends at once (`stopReason.code: guardrail`).",
  'prompt.pause-requested':
    'The prompt waits for a decision, continue or stop (a repeated loop of calls, or a plugin).',
  'prompt.steered':
    'A steering message reached the running prompt (a `steering` output the model reads next).',
  'message.queued':
    'A message waits for the conversation (`promptId` is its id: a queued one runs as that prompt).',
  'message.removed': 'A waiting message was removed by its user.',
};

const variants = Object.entries(EVENTS).map(([type, fields]) =>
  fields
    .extend({ type: z.literal(type), ...scope })
    .meta({ id: `Event_${type.replace(/[.-]/g, '_')}`, description: DESCRIPTIONS[type as TesseraEventType] }),
);

/** One event of a conversation's stream: the SSE `event` field is its `type`, its `data` this JSON. */
export const ConversationEvent = z
  .discriminatedUnion('type', variants as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ id: 'ConversationEvent', description: "One event's `data`; the SSE `event` field is its `type`." });

/** The `data` of each event on a user's own stream (GET /api/me/events), keyed by type as above. */
const USER_EVENTS: { [T in UserEventType]: z.ZodObject } = {
  'conversation.created': z.object({ conversation: ConversationSchema }),
  'conversation.renamed': z.object({ conversationId: z.string(), title: z.string() }),
  'conversation.deleted': z.object({ conversationId: z.string() }),
  'conversation.waiting': z.object({
    conversationId: z.string(),
    promptId: z.string(),
    waiting: z.boolean().meta({
      description:
        'True: the prompt waits for you (a tool call to approve, or a pause to decide; see GET /api/approvals and GET /api/pauses). False: it no longer waits (decided, resumed or ended).',
    }),
  }),
};

const USER_DESCRIPTIONS: Record<UserEventType, string> = {
  'conversation.created':
    'A conversation of yours was created (by you anywhere: another tab, the CLI, a plugin).',
  'conversation.renamed':
    'A conversation of yours has a new title (renamed, or named after its first message).',
  'conversation.deleted': 'A conversation of yours was deleted.',
  'conversation.waiting': 'A prompt of a conversation of yours waits for you, or no longer does.',
};

const userVariants = Object.entries(USER_EVENTS).map(([type, fields]) =>
  fields.extend({ type: z.literal(type) }).meta({
    id: `UserEvent_${type.replace(/[.-]/g, '_')}`,
    description: USER_DESCRIPTIONS[type as UserEventType],
  }),
);

/** One event of a user's own stream: the SSE `event` field is its `type`, its `data` this JSON. */
export const UserEventSchema = z
  .discriminatedUnion('type', userVariants as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ id: 'UserEvent', description: "One event's `data`; the SSE `event` field is its `type`." });
