// The benchmarks' client: conversations that send prompts over HTTP and wait for each one's completion on
// the conversation's event stream (SSE), one prompt after another, as a user would.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { quantile } from './bench-processes.ts';

let resent = 0;
/** How many prompt sends were cut off and sent again, so far. */
export const resends = () => resent;

export type Conversation = {
  id: string;
  url: string;
  /** Sends one prompt and resolves with its latency (ms) once `prompt.completed` arrives. */
  prompt(input?: string): Promise<number>;
  close(): void;
};

/** Creates a conversation on the server at `url` and opens its event stream. */
export async function openConversation(url: string, token: string): Promise<Conversation> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const init = (extra: RequestInit) => ({ ...extra, headers }) as RequestInit;
  const created = await fetch(`${url}/api/conversations`, init({ method: 'POST', body: '{}' }));
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`creating a conversation answered ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  const controller = new AbortController();
  const events = await fetch(`${url}/api/conversations/${id}/events`, init({ signal: controller.signal }));
  const reader = events
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  await reader.read(); // ready
  return {
    id,
    url,
    async prompt(input = 'hello') {
      const started = performance.now();
      // With its own id, a send cut off (a kept-alive socket the server closed as the request left, under
      // heavy load) is sent again safely: the server answers a repeated id with the prompt it started.
      const body = JSON.stringify({ input, id: `bench_${crypto.randomUUID()}` });
      let sent: Response | undefined;
      for (let attempt = 1; !sent; attempt++) {
        try {
          sent = await fetch(`${url}/api/conversations/${id}/prompts`, init({ method: 'POST', body }));
        } catch (error) {
          if (attempt >= 3) throw error;
          resent++;
        }
      }
      if (sent.status !== 202)
        throw new Error(`sending a prompt answered ${sent.status}: ${await sent.text()}`);
      await sent.arrayBuffer();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        if (value.event === 'prompt.completed') break;
        if (value.event === 'prompt.failed') throw new Error(`a prompt failed: ${value.data}`);
      }
      return performance.now() - started;
    },
    close: () => controller.abort(),
  };
}

export type LoadResult = { prompts: number; seconds: number; perSecond: number; p50: number; p99: number };

/**
 * `conversations` conversations (spread over `urls` round-robin) each send prompts back to back for
 * `durationMs`, after a short warm-up; or until `totalPrompts` have completed.
 */
export async function runLoad(options: {
  urls: string[];
  token: string;
  conversations: number;
  durationMs?: number;
  totalPrompts?: number;
  warmupMs?: number;
  /** Called between the warm-up and the measured part (to read the server's counters). */
  onMeasureStart?: () => Promise<void>;
}): Promise<LoadResult> {
  const open = await Promise.all(
    Array.from({ length: options.conversations }, (_, i) =>
      openConversation(options.urls[i % options.urls.length]!, options.token),
    ),
  );
  try {
    const warmupBy = performance.now() + (options.warmupMs ?? 1_000);
    await Promise.all(
      open.map(async (conversation) => {
        while (performance.now() < warmupBy) await conversation.prompt();
      }),
    );
    await options.onMeasureStart?.();
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + (options.durationMs ?? Number.POSITIVE_INFINITY);
    const total = options.totalPrompts ?? Number.POSITIVE_INFINITY;
    let sent = 0;
    await Promise.all(
      open.map(async (conversation) => {
        while (performance.now() < deadline && sent < total) {
          sent++;
          latencies.push(await conversation.prompt());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      prompts: latencies.length,
      seconds,
      perSecond: latencies.length / seconds,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
    };
  } finally {
    for (const conversation of open) conversation.close();
  }
}
