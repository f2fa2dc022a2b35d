import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelStreamEvent } from '@tessera/core';

/**
 * The demo model's slow answers: text that streams for about 20 seconds, so that Stop, Steer and Queue can be
 * tried while an answer is being written (not only while an approval waits).
 */
export type SlowAnswer = { kind: 'count'; to: number } | { kind: 'write'; topic: string };

const SLOW = /\bslow(?:ly)?\b/i;
const COUNT = /\bcount\b(?:\s+(?:up\s+)?to\s+(\d{1,3}))?/i;
const WRITE = /\bwrite\b[^\n]{0,40}?\babout\s+([^\n.!?]{1,60})/i;

export const SLOW_EXAMPLES = [
  '"count to 30 slowly" or "write slowly about the sea" (streams for about 20 seconds: try Stop, Steer and Queue meanwhile)',
];

/** The slow answer a message asks for, if any: counting (to 30 unless told, at most 100) or writing about something. */
export function slowAnswer(read: string): SlowAnswer | undefined {
  if (!SLOW.test(read)) return undefined;
  const count = COUNT.exec(read);
  if (count) return { kind: 'count', to: Math.min(Math.max(Number(count[1] ?? 30), 1), 100) };
  const write = WRITE.exec(read);
  if (write) return { kind: 'write', topic: write[1]!.trim() };
  return undefined;
}

const piece = (topic: string) =>
  [
    `Here is a slow piece about ${topic}, written one word at a time.`,
    'While I write, you can stop me with Stop, steer me with a message that I read at my next step,',
    'or queue a message that runs as soon as I am done.',
    `There is much to say about ${topic}, and I am the offline demo model: I only know how to take my time.`,
    `So this is all about ${topic} for now.`,
  ].join(' ');

/**
 * The answer's text deltas, `stepMs` apart (a number each when counting, a word each when writing, at half the
 * step). The wait ends at once when `signal` aborts: the stream throws its abort reason, as a provider's does.
 */
export async function* streamSlowly(
  answer: SlowAnswer,
  stepMs: number,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  const deltas =
    answer.kind === 'count'
      ? Array.from(
          { length: answer.to },
          (_, i) => `${i === 0 ? '' : ', '}${i + 1}${i + 1 === answer.to ? '.' : ''}`,
        )
      : (piece(answer.topic).match(/\S+\s*/g) ?? []);
  const wait = answer.kind === 'count' ? stepMs : Math.round(stepMs / 2);
  for (const [i, delta] of deltas.entries()) {
    if (i > 0) await sleep(wait, undefined, { signal });
    yield { type: 'text-delta', delta };
  }
}
