import { ModelError, type ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RetryOptions, withRetries } from '../src/index.ts';

const text = (delta: string): ModelStreamEvent => ({ type: 'text-delta', delta });
const transient = (message = 'Overloaded') =>
  new ModelError(message, { kind: 'server', retryable: true, status: 503 });
const toModelError = (thrown: unknown) =>
  ModelError.is(thrown)
    ? thrown
    : new ModelError(String(thrown), { kind: 'connection', retryable: true, cause: thrown });
const fast: RetryOptions = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

/** A call that throws each given error in turn before any output, then streams `events`. */
function script(errors: unknown[], events: ModelStreamEvent[] = [text('ok')]) {
  let calls = 0;
  const attempt = async function* (): AsyncGenerator<ModelStreamEvent> {
    const error = errors[calls++];
    if (error !== undefined) throw error;
    yield* events;
  };
  return { attempt, calls: () => calls };
}

const collect = async <T>(stream: AsyncIterable<T>) => {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
};
const signal = () => new AbortController().signal;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('withRetries', () => {
  it('retries transient failures before any output, then streams the answer', async () => {
    const call = script([transient(), 'ECONNRESET']);
    const events = await collect(withRetries(call.attempt, { ...fast, toModelError }, signal()));
    expect(events).toEqual([text('ok')]);
    expect(call.calls()).toBe(3);
  });

  it('gives up after maxRetries with the typed, retryable error', async () => {
    const call = script([transient('1'), transient('2'), transient('3')]);
    await expect(
      collect(withRetries(call.attempt, { ...fast, maxRetries: 2, toModelError }, signal())),
    ).rejects.toMatchObject({ message: '3', kind: 'server', retryable: true, status: 503 });
    expect(call.calls()).toBe(3);
  });

  it('does not retry a final error', async () => {
    const bad = new ModelError('Bad request', { kind: 'bad_request', retryable: false, status: 400 });
    const call = script([bad]);
    await expect(collect(withRetries(call.attempt, { ...fast, toModelError }, signal()))).rejects.toBe(bad);
    expect(call.calls()).toBe(1);
  });

  it('never retries after output: it throws, saying so, and the caller keeps what streamed', async () => {
    let calls = 0;
    const attempt = async function* () {
      calls++;
      yield text('Half');
      throw transient();
    };
    const seen: ModelStreamEvent[] = [];
    const failure = await (async () => {
      for await (const event of withRetries(attempt, { ...fast, toModelError }, signal())) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([text('Half')]);
    expect(calls).toBe(1);
    expect(failure).toMatchObject({
      kind: 'server',
      retryable: true,
      status: 503,
      message: 'Overloaded (Not retried: it failed after part of the answer had streamed.)',
    });
    expect((failure as ModelError).cause).toBeInstanceOf(ModelError);

    // A final error after output is thrown as it is.
    const final = new ModelError('Refused', { kind: 'bad_request', retryable: false });
    const refusing = async function* () {
      yield text('Half');
      throw final;
    };
    await expect(collect(withRetries(refusing, { ...fast, toModelError }, signal()))).rejects.toBe(final);
  });

  it('waits with full jitter: a random part of the doubling backoff, capped at maxDelayMs', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
      waits.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout);
    const call = script([transient(), transient(), transient(), transient()]);
    await collect(
      withRetries(call.attempt, { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 500, toModelError }, signal()),
    );
    expect(waits).toEqual([100, 200, 400, 500]);
  });

  it('honours the retry-after the provider reads from its error, capped at maxDelayMs', async () => {
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
      waits.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout);
    const asked = new Map<ModelError, number>();
    const soon = transient('soon');
    const later = transient('later');
    asked.set(soon, 7).set(later, 60_000);
    const retryAfterMs = vi.fn((error: ModelError) => asked.get(error));
    const call = script([soon, later]);
    const options = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1_000, toModelError, retryAfterMs };
    expect(await collect(withRetries(call.attempt, options, signal()))).toEqual([text('ok')]);
    expect(waits).toEqual([7, 1_000]);
    expect(retryAfterMs).toHaveBeenCalledWith(soon);
  });

  it('stops at once with the signal’s reason when aborted during a wait, and retries nothing after', async () => {
    const controller = new AbortController();
    const call = script([transient(), transient()]);
    const stream = withRetries(
      call.attempt,
      { maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, toModelError, retryAfterMs: () => 60_000 },
      controller.signal,
    );
    // Every wait is a minute: a retry that ignored the signal would outlive the test's own timeout.
    const result = collect(stream).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('stop')), 10);
    expect(await result).toMatchObject({ message: 'stop' });
    expect(call.calls()).toBe(1);
  });

  it('throws the signal’s reason, not a retry, when the call fails because it was aborted', async () => {
    const controller = new AbortController();
    const attempt = (): AsyncIterable<ModelStreamEvent> => {
      controller.abort(new Error('cancelled'));
      throw transient();
    };
    await expect(
      collect(withRetries(attempt, { ...fast, toModelError }, controller.signal)),
    ).rejects.toMatchObject({ message: 'cancelled' });
  });
});
