/** What a process says on its schema's presence channel: here I am (answer me), still here, gone. */
export type PresenceKind = 'hello' | 'beat' | 'bye';

export type PresenceTimes = {
  /** How often a process says it is still here (default 2 s). */
  heartbeatMs?: number;
  /** How long another process is known without being heard, and the window after (re)connecting (default 3 heartbeats). */
  expiryMs?: number;
};

export const DEFAULT_HEARTBEAT_MS = 2_000;

/**
 * Which other processes share the relay, as far as this one knows: so that a process alone sends nothing.
 * Each process heartbeats; a process is known until it has not been heard for `expiryMs`. A process that
 * is not listening, or has listened for less than `expiryMs`, may have missed someone: it counts as not
 * alone (`others()`) until it has listened for a whole window and heard nobody.
 */
export function presence(
  say: (kind: PresenceKind) => Promise<void>,
  times: PresenceTimes,
  onError: (error: unknown) => void,
) {
  const heartbeatMs = times.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const expiryMs = times.expiryMs ?? 3 * heartbeatMs;
  if (!(heartbeatMs > 0) || !(expiryMs > heartbeatMs)) {
    throw new RangeError(
      `The relay's expiry (${expiryMs} ms) must be longer than its heartbeat (${heartbeatMs} ms).`,
    );
  }
  /** Other processes by origin: when each was last heard. */
  const known = new Map<string, number>();
  /** Since when this process has listened without a break (undefined: not listening). */
  let listeningSince: number | undefined;
  const send = (kind: PresenceKind) => say(kind).catch(onError);
  const timer = setInterval(() => void send('beat'), heartbeatMs);
  // A heartbeat never keeps the process alive.
  timer.unref();
  let closed = false;

  return {
    /** Listening (again) on every channel: whoever was announced meanwhile was missed, so ask them. */
    connected(): Promise<void> {
      listeningSince = performance.now();
      return send('hello');
    },
    disconnected() {
      listeningSince = undefined;
    },
    heard(from: string, kind: string) {
      if (kind === 'bye') return void known.delete(from);
      known.set(from, performance.now());
      // A newcomer learns of the others within a round trip, not a heartbeat.
      if (kind === 'hello' && !closed) void send('beat');
    },
    /** Whether another process may be listening: one was heard lately, or this one may have missed it. */
    others(): boolean {
      const now = performance.now();
      if (listeningSince === undefined || now - listeningSince < expiryMs) return true;
      for (const [origin, at] of known) {
        if (now - at < expiryMs) return true;
        known.delete(origin);
      }
      return false;
    },
    /** Stops heartbeating and says goodbye, so the others stop sending here at once. */
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await send('bye');
    },
  };
}
