import { ServerResponse } from 'node:http';
import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { HttpError } from '../errors.ts';
import type { EventLog } from '../event-log.ts';
import { ConversationEvent, UserEventSchema } from '../event-schemas.ts';
import { type EventStreamBodyOptions, eventStream, Wakes } from '../event-stream.ts';
import { ErrorSchema, IdParam } from '../schemas.ts';
import type { UserEventLog } from '../user-events.ts';
import { type Api, type Env, errors, json } from './shared.ts';

/** Any string: one this process cannot resume from is answered with a `reset` event, not an error. */
const LastEventId = z.string().max(200).meta({ description: 'The id of the last event received' });

const STREAMS_PER_USER = [
  "Each user has at most `limits.streamsPerUser` streams open at once (conversations' and their own alike):",
  'past it, 429 `too_many_streams`. A browser is authorized by its session cookie (no token in the URL);',
  'programs send a bearer token.',
].join(' ');

const EVENTS_DESCRIPTION = [
  'Every event of the conversation as it happens: `prompt.started`, `prompt.output`, `prompt.output-updated`,',
  '`prompt.text-delta`, `prompt.approval-requested`, `prompt.resumed`, `prompt.completed`, `prompt.failed`,',
  '`prompt.cancelled`, `prompt.hook-failed`, `prompt.guardrail-tripped`, `prompt.pause-requested`,',
  '`prompt.pause-decided`, `prompt.steered`, `message.queued`, `message.removed` (the `ConversationEvent` schema:',
  "one per type), each with the event's JSON as `data` and an `id`. The stream carries too the events of the",
  "prompts that run for this conversation at any depth (a sub-agent's child prompt, its grandchild, ...: a",
  'prompt whose `metadata.parent` names a prompt of this conversation, or of a conversation below it), each',
  "unchanged: its own `conversationId` and `promptId` tell it from this conversation's own events. Only your",
  'own prompts are forwarded, from their `prompt.started` (or their end, for one that started before this',
  'server saw it) on, at most 8 conversations deep. The stream opens with `ready`',
  '(`{ "boot" }`) and sends a comment every 15 s. To resume after a dropped connection, send the last id as',
  '`Last-Event-ID` (EventSource does) or `?lastEventId=`: the missed events come first. When the server cannot',
  'replay them (another process, or too old), a `reset` event comes first: reload the conversation.',
  "A stream whose reader falls behind (more than the server's `limits.streamQueueBytes` of events wait while",
  'its connection takes nothing) is cut: reconnect with the last id received, as for any dropped connection.',
  STREAMS_PER_USER,
].join(' ');

const USER_EVENTS_DESCRIPTION = [
  'What your list of conversations needs to stay live, across all of them (the `UserEvent` schema): a',
  'conversation created (`conversation.created`, with the conversation), renamed (`conversation.renamed`, with',
  'its new title, the automatic title after a first message included) or deleted (`conversation.deleted`),',
  'whoever did it (another tab, the CLI, a plugin), and whether one waits for you (`conversation.waiting`,',
  '`waiting: true` when a prompt of it asks to approve a tool call or decide a pause, `false` when it no longer',
  "waits): list them with GET /api/approvals and GET /api/pauses. Only your own conversations, never a prompt's",
  'content. Like a conversation\'s stream: it opens with `ready` (`{ "boot" }`), each event has an `id`, a',
  'comment every 15 s; resume with `Last-Event-ID` or `?lastEventId=` (missed events first; `reset` when they',
  'cannot be replayed: read the list again); a reader that falls behind is cut. Load the list after `ready`, so',
  'that no change falls between the two. Created, renamed and deleted come from the process that made the',
  'change: with several processes on one database, a client following another process hears of them at its',
  'next reload; waiting states travel between processes.',
  STREAMS_PER_USER,
].join(' ');

export type EventStreamOptions = {
  events: EventLog;
  userEvents: UserEventLog;
  /** Aborted at shutdown: event streams end cleanly. */
  shutdown: AbortSignal;
  heartbeatMs?: number;
  /**
   * The most bytes of events a stream may have waiting while its connection takes nothing: past it, its
   * reader is too slow and the stream is cut (default 2 MB).
   */
  streamQueueBytes?: number;
  /** Event streams one user may have open at once (default 100); past it, 429 `too_many_streams`. */
  streamsPerUser?: number;
  log?: Logger;
};

/** How long a client refused for having too many streams is told to wait (`Retry-After`, seconds). */
const RETRY_AFTER_SECONDS = 5;

/** What both streams answer besides the stream itself. */
const streamErrors = {
  400: errors[400],
  401: errors[401],
  429: {
    ...json(
      ErrorSchema,
      'Too many event streams open for this user (`too_many_streams`), or a rate limit (`rate_limited`): wait `Retry-After` seconds',
    ),
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again',
        schema: { type: 'integer' as const },
      },
    },
  },
};
const resumeRequest = {
  query: z.object({ lastEventId: LastEventId.optional() }),
  headers: z.object({ 'last-event-id': LastEventId.optional() }),
};

/**
 * Live events over SSE, resumable with `Last-Event-ID` (else a `reset` event): a conversation's, and each
 * user's own (their conversations' changes and waiting states). Both count against one limit per user.
 */
export function eventRoutes(app: Api, platform: Platform, options: EventStreamOptions): void {
  const serve = streamServer(options);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/events',
      operationId: 'streamConversationEvents',
      tags: tags('events'),
      summary: 'Follow a conversation live',
      description: EVENTS_DESCRIPTION,
      request: { params: IdParam, ...resumeRequest },
      responses: {
        200: {
          description: 'The event stream (it stays open)',
          // The schema of each event's `data` (the stream itself is text: `event:`, `id:` and `data:` lines).
          content: { 'text/event-stream': { schema: ConversationEvent } },
        },
        ...streamErrors,
        404: errors[404],
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      await platform.conversations.get(conversationId, c.var.userId); // 404 unless it is the caller's
      // Whose it is, so that only the caller's own prompts running for it are forwarded into its stream.
      options.events.owns(conversationId, c.var.userId);
      const lastEventId = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId;
      return serve(c, {
        events: options.events,
        key: conversationId,
        lastEventId,
        reload: 'the conversation',
        logged: { conversationId },
      });
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me/events',
      operationId: 'streamUserEvents',
      tags: tags('events'),
      summary: 'Follow your conversation list live',
      description: USER_EVENTS_DESCRIPTION,
      request: resumeRequest,
      responses: {
        200: {
          description: 'The event stream (it stays open)',
          content: { 'text/event-stream': { schema: UserEventSchema } },
        },
        ...streamErrors,
      },
    }),
    async (c) => {
      const lastEventId = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId;
      // The caller's own key: no id from the client picks whose events these are.
      return serve(c, {
        events: options.userEvents,
        key: c.var.userId,
        lastEventId,
        reload: 'the list',
        logged: { stream: 'user' },
      });
    },
  );
}

type Followed = {
  events: EventStreamBodyOptions['events'];
  key: string;
  lastEventId?: string;
  reload: string;
  /** What the stream's log lines say it follows. */
  logged: object;
};

/** Answers a request with a stream of `followed`, within the caller's number of open streams. */
function streamServer(options: EventStreamOptions) {
  const perUser = options.streamsPerUser ?? 100;
  /** The streams open per user in this process, of both kinds. */
  const open = new Map<string, number>();
  const wakes = new Wakes();
  return (c: Context<Env>, { events, key, lastEventId, reload, logged }: Followed): Response => {
    const { userId } = c.var;
    const streams = open.get(userId) ?? 0;
    if (streams >= perUser) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      throw new HttpError(
        429,
        'too_many_streams',
        `You have ${streams} event streams open, the most allowed: close one (or wait for one to end) first.`,
      );
    }
    open.set(userId, streams + 1);
    const release = () => {
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
    };
    const body = eventStream({
      events,
      key,
      lastEventId,
      reload,
      queueBytes: options.streamQueueBytes ?? 2_000_000,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      wakes,
      disconnected: c.req.raw.signal,
      shutdown: options.shutdown,
      outgoing: nodeResponse(c),
      onClose: release,
      log: options.log,
      logContext: { ...logged, userId },
    });
    c.header('Content-Type', 'text/event-stream');
    c.header('Cache-Control', 'no-cache');
    c.header('Connection', 'keep-alive');
    // Chunked: @hono/node-server sends the head at once rather than wait for the first events.
    c.header('Transfer-Encoding', 'chunked');
    return c.newResponse(body);
  };
}

/** The Node response under this request, when served by @hono/node-server (none under another server). */
function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}
