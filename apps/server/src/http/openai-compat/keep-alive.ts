import type { SSEStreamingApi } from 'hono/streaming';

/** How often a stream with nothing to send sends a comment: proxies and clients cut connections idle a minute. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Sends an SSE comment (`: ping`, which the OpenAI SDKs skip) every KEEP_ALIVE_MS while a tool runs or the
 * model thinks. Returns what stops it.
 */
export function keepAlive(stream: SSEStreamingApi): () => void {
  const timer = setInterval(() => void stream.write(': ping\n\n'), KEEP_ALIVE_MS);
  return () => clearInterval(timer);
}
