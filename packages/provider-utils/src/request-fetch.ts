import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { request } from 'undici';

/** Statuses whose response has no body (`new Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The most codings a body may name, as Node's `fetch` allows: each costs a decoder, and a header holds thousands. */
const MAX_CODINGS = 5;

/** Reads and drops a body not given to the caller (up to undici's limit, then closes the connection). */
const discard = (body: { dump(): Promise<void> }) => void body.dump().catch(() => {});

/** What a model call sends: a URL, and a body already in memory (JSON). Anything else goes to `fetch`. */
const simpleBody = (body: unknown): body is string | Uint8Array | null | undefined =>
  body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;

/**
 * `fetch` for model calls, on undici's `request()`: the same answers as Node's `fetch` for what an SDK's model
 * call sends (a string or bytes body to a URL), at about half its CPU. Node's `fetch` runs the Fetch
 * standard's algorithm for each request (a `Request`, header guards, a web stream fed through its own
 * machinery); `request()` is undici's plain client under it, on the same global dispatcher (a proxy set with
 * `setGlobalDispatcher` applies to both). Pass it as the `fetch` option of an SDK client (`@tessera/openai`
 * uses it by default; `createOpenAI({ fetch: requestFetch })` of the AI SDK takes it too).
 *
 * Where the two would differ it is `fetch`: a `Request` as input, a body that is a form, blob or stream, and
 * a redirect are handed to `globalThis.fetch`. No `accept-encoding` is added (a model's stream is small, and
 * decoding costs more than it saves on a near network); a body a server compresses anyway (gzip, deflate,
 * br) is decoded. The body is read as the caller reads it: a reader that stops stops the connection (TCP's
 * flow control), and cancelling it closes the connection.
 */
export const requestFetch: typeof fetch = async (input, init) => {
  if (input instanceof Request || !simpleBody(init?.body)) return fetch(input, init);
  const url = input instanceof URL ? input.href : input;
  init?.signal?.throwIfAborted();
  const response = await request(url, {
    method: (init?.method ?? 'GET') as 'GET',
    headers: init?.headers instanceof Headers ? init.headers : new Headers(init?.headers),
    body: init?.body ?? null,
    signal: init?.signal ?? undefined,
  });
  const { statusCode, headers: raw } = response;
  if (statusCode < 200 || statusCode > 599) {
    discard(response.body);
    throw new TypeError('fetch failed', {
      cause: new Error(`The server answered with status ${statusCode}.`),
    });
  }
  if (statusCode >= 300 && statusCode < 400 && raw.location && init?.redirect !== 'manual') {
    discard(response.body);
    return fetch(input, init);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.append(name, value);
  }
  const codings = headers.get('content-encoding')?.toLowerCase().split(',') ?? [];
  if (codings.length > MAX_CODINGS) {
    discard(response.body);
    throw new TypeError('fetch failed', {
      cause: new Error(`The body names ${codings.length} content codings.`),
    });
  }
  let body: ReadableStream<Uint8Array> | null = null;
  if (NULL_BODY.has(statusCode) || init?.method === 'HEAD') discard(response.body);
  else body = webStream(decoded(response.body, codings));
  const answer = new Response(body, { status: statusCode, headers });
  Object.defineProperty(answer, 'url', { value: url });
  return answer;
};

/** The body through the decoders its `content-encoding` names (last applied, first undone). */
function decoded(body: Readable, codings: readonly string[]): Readable {
  let stream: Readable = body;
  for (const name of codings.toReversed()) {
    const decoder = DECODERS[name.trim()];
    if (!decoder) continue; // identity, or one fetch would not decode either
    const next = decoder() as unknown as Readable;
    stream.on('error', (error) => next.destroy(error));
    stream = stream.pipe(next as unknown as NodeJS.WritableStream) as unknown as Readable;
  }
  if (stream !== body) stream.on('close', () => body.destroy());
  return stream;
}

/**
 * A Node stream as a web stream that pulls: the Node stream is paused while the web stream's queue is full
 * (one chunk), so a slow reader holds back the server instead of buffering what it sends.
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  let open = true; // until the body ends or fails, or the reader cancels: the controller refuses chunks after
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      body.once('end', () => {
        if (open) controller.close();
        open = false;
      });
      body.once('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
      body.pause();
    },
    pull() {
      body.resume();
    },
    cancel(reason) {
      open = false;
      body.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}
