import { ServerResponse } from 'node:http';
import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import type { EventLog } from '../event-log.ts';
import { ConversationEvent } from '../event-schemas.ts';
import { eventStream, Wakes } from '../event-stream.ts';
import { ErrorSchema, IdParam } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

/** Any string: one this process cannot resume from is answered with a `reset` event, not an error. */
const LastEventId = z.string().max(200).meta({ description: 'The id of the last event received' });

const EVENTS_DESCRIPTION = [
  'Every event of the conversation as it happens: `prompt.started`, `prompt.output`, `prompt.output-updated`,',
  '`prompt.text-delta`, `prompt.approval-requested`, `prompt.resumed`, `prompt.completed`, `prompt.failed`,',
  '`prompt.cancelled`, `prompt.hook-failed`, `prompt.guardrail-tripped`, `prompt.pause-requested`,',
  '`prompt.pause-decided`, `prompt.steered`, `message.queued`, `message.removed` (the `ConversationEvent` schema:',
  "one per type), each with the event's JSON as `data` and an `id`. The stream opens with `ready`",
  '(`{ "boot" }`) and sends a comment every 15 s. To resume after a dropped connection, send the last id as',
  '`Last-Event-ID` (EventSource does) or `?lastEventId=`: the missed events come first. When the server cannot',
  'replay them (another process, or too old), a `reset` event comes first: reload the conversation.',
  "A stream whose reader falls behind (more than the server's `limits.streamQueueBytes` of events wait while",
  'its connection takes nothing) is cut: reconnect with the last id received, as for any dropped connection.',
  'Each user has at most `limits.streamsPerUser` streams open at once: past it, 429 `too_many_streams`.',
  'A browser is authorized by its session cookie (no token in the URL); programs send a bearer token.',
].join(' ');

export type EventStreamOptions = {
  events: EventLog;
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

/** A conversation's live events over SSE, resumable with `Last-Event-ID` (else a `reset` event). */
export function eventRoutes(app: Api, platform: Platform, options: EventStreamOptions): void {
  const perUser = options.streamsPerUser ?? 100;
  /** The streams open per user in this process. */
  const open = new Map<string, number>();
  const wakes = new Wakes();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/events',
      operationId: 'streamConversationEvents',
      summary: 'Follow a conversation live: Server-Sent Events, resumable',
      description: EVENTS_DESCRIPTION,
      request: {
        params: IdParam,
        query: z.object({ lastEventId: LastEventId.optional() }),
        headers: z.object({ 'last-event-id': LastEventId.optional() }),
      },
      responses: {
        200: {
          description: 'The event stream (it stays open)',
          // The schema of each event's `data` (the stream itself is text: `event:`, `id:` and `data:` lines).
          content: { 'text/event-stream': { schema: ConversationEvent } },
        },
        400: errors[400],
        401: errors[401],
        404: errors[404],
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
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      const { userId } = c.var;
      await platform.conversations.get(conversationId, userId); // 404 unless it is the caller's
      const lastEventId = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId;
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
        events: options.events,
        conversationId,
        lastEventId,
        queueBytes: options.streamQueueBytes ?? 2_000_000,
        heartbeatMs: options.heartbeatMs ?? 15_000,
        wakes,
        disconnected: c.req.raw.signal,
        shutdown: options.shutdown,
        outgoing: nodeResponse(c),
        onClose: release,
        log: options.log,
        logContext: { conversationId, userId },
      });
      c.header('Content-Type', 'text/event-stream');
      c.header('Cache-Control', 'no-cache');
      c.header('Connection', 'keep-alive');
      // Chunked: @hono/node-server sends the head at once rather than wait for the first events.
      c.header('Transfer-Encoding', 'chunked');
      return c.newResponse(body);
    },
  );
}

/** The Node response under this request, when served by @hono/node-server (none under another server). */
function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}
