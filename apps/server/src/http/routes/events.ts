import type { Platform } from '@tessera/core';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import type { EventLog, LoggedEvent } from '../event-log.ts';
import { IdParam } from '../schemas.ts';
import { type Api, parseOr400 } from './shared.ts';

export type EventStreamOptions = {
  events: EventLog;
  /** Aborted at shutdown: event streams end cleanly. */
  shutdown: AbortSignal;
  heartbeatMs?: number;
  log?: Logger;
};

/** A conversation's live events over SSE, resumable with `Last-Event-ID` (else a `reset` event). */
export function eventRoutes(app: Api, platform: Platform, options: EventStreamOptions): void {
  app.get('/api/conversations/:id/events', async (c) => {
    const conversationId = parseOr400(IdParam, c.req.param()).id;
    await platform.conversations.get(conversationId, c.var.userId); // 404 unless it is the caller's
    const lastEventId = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    const follow = async (stream: SSEStreamingApi) => {
      const queue: LoggedEvent[] = [];
      let wake: (() => void) | undefined;
      const unlisten = options.events.listen(conversationId, (entry) => {
        queue.push(entry);
        wake?.();
      });
      const stop = () => wake?.();
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
          while (!stream.aborted && !stream.closed && !options.shutdown.aborted && !disconnected.aborted) {
            const entry = queue.shift();
            if (entry) {
              await stream.writeSSE({
                id: entry.id,
                event: entry.event.type,
                data: JSON.stringify(entry.event),
              });
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
  });
}
