import { describe, expect, it } from 'vitest';
import { MARKS_MAX, mark } from '../src/loop/round-caches.ts';

// The marks of conversations that may have messages waiting (RoundCaches) stay bounded in a long-lived
// process: a mark of a conversation whose prompts run elsewhere is never taken off here.
describe('message marks', () => {
  it('keep at most MARKS_MAX conversations, forgetting the oldest mark first', () => {
    const marks = new Set<string>();
    for (let i = 0; i <= MARKS_MAX; i++) mark(marks, `c${i}`);
    expect(marks.size).toBe(MARKS_MAX);
    expect(marks.has('c0')).toBe(false);
    expect(marks.has(`c${MARKS_MAX}`)).toBe(true);
  });

  it('make a conversation marked again the newest, so it is forgotten last', () => {
    const marks = new Set<string>();
    for (let i = 0; i < MARKS_MAX; i++) mark(marks, `c${i}`);
    mark(marks, 'c0');
    mark(marks, 'new');
    expect(marks.has('c0')).toBe(true);
    expect(marks.has('c1')).toBe(false);
  });
});
