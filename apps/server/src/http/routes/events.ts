import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { EventLog, LoggedEvent } from '../event-log.ts';
import { ConversationEvent } from '../event-schemas.ts';
import { IdParam } from '../schemas.ts';
import { type Api, errors } from './shared.ts';

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
  'A browser is authorized by its session cookie (no token in the URL); programs send a bearer token.',
].join(' ');

export type EventStreamOptions = {
  events: EventLog;
  /** Aborted at shutdown: event streams end cleanly. */
  shutdown: AbortSignal;
  heartbeatMs?: number;
  log?: Logger;
};

/** A conversation's live events over SSE, resumable with `Last-Event-ID` (else a `reset` event). */
export function eventRoutes(app: Api, platform: Platform, options: EventStreamOptions): void {
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
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      await platform.conversations.get(conversationId, c.var.userId); // 404 unless it is the caller's
      const lastEventId = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId;
      const follow = async (stream: SSEStreamingApi) => {
        const queue: LoggedEvent[] = [];
        let wake: (() => void) | undefined;
        const unlisten = options.events.listen(conversationId, (entry) => {
          queue.push(entry);
          wake?.();
        });
        let ended = false;
        const stop = () => wake?.();
        const unlistenEnd = options.events.onEnd(conversationId, () => {
          ended = true;
          stop();
        });
        const disconnected = c.req.raw.signal;
        options.shutdown.addEventListener('abort', stop);
        disconnected.addEventListener('abort', stop);
        stream.onAbort(stop);
        try {
          if (lastEventId) {
            const missed = options.events.since(conversationId, lastEventId);
            if (missed) queue.unshift(...missed.filter((entry) => !queue.includes(entry)));
            else
              await stream.writeSSE({
                event: 'reset',
                data: '{"reason":"cannot resume; reload the conversation"}',
              });
          }
          await stream.writeSSE({ event: 'ready', data: JSON.stringify({ boot: options.events.boot }) });
          const heartbeat = setInterval(() => void stream.write(': ping\n\n'), options.heartbeatMs ?? 15_000);
          try {
            while (
              !ended &&
              !stream.aborted &&
              !stream.closed &&
              !options.shutdown.aborted &&
              !disconnected.aborted
            ) {
              if (queue.length > 0) {
                // What arrived meanwhile goes out in one write (a prompt's last output and its end come
                // together): one system call rather than one per event.
                await stream.write(queue.splice(0).map(frame).join(''));
                continue;
              }
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
            }
          } finally {
            clearInterval(heartbeat);
          }
        } finally {
          unlisten();
          unlistenEnd();
          options.shutdown.removeEventListener('abort', stop);
          disconnected.removeEventListener('abort', stop);
        }
      };
      // An error once the stream is open cannot become a 500: the stream ends, the log says why.
      return streamSSE(c, (stream) =>
        follow(stream).catch((error: unknown) =>
          options.log?.error({ err: error, conversationId }, 'event stream failed'),
        ),
      );
    },
  );
}

/** One event as an SSE frame (as hono's `writeSSE` writes it; JSON has no line breaks to split). */
const frame = (entry: LoggedEvent) =>
  `event: ${entry.event.type}\ndata: ${JSON.stringify(entry.event)}\nid: ${entry.id}\n\n`;
