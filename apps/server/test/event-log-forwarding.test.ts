import type { PlatformEvents, Prompt, TesseraEvent } from '@tessera/core';
import { describe, expect, it, vi } from 'vitest';
import { EventLog, MAX_FORWARD_DEPTH } from '../src/http/event-log.ts';

// The log forwards a child prompt's events to the conversations above it (metadata.parent): bounded in
// links, in depth, never across users, never in a loop, and followed on the relay while needed.

function logOf(options: ConstructorParameters<typeof EventLog>[1] = {}) {
  let handler: ((event: TesseraEvent) => void) | undefined;
  /** The topics followed on the relay now, once per interest. */
  const followed: string[] = [];
  const bus = {
    subscribe: (_filter: unknown, h: typeof handler) => (handler = h),
    follow: (topic: string) => {
      followed.push(topic);
      const unfollow = () => void followed.splice(followed.indexOf(topic), 1);
      return Object.assign(unfollow, { ready: Promise.resolve() });
    },
  } as unknown as PlatformEvents;
  const log = new EventLog(bus, options);
  const prompt = (id: string, conversationId: string, userId: string, parent?: object): Prompt =>
    ({ id, conversationId, userId, metadata: parent && { parent } }) as unknown as Prompt;
  const scope = (p: Prompt) => ({ promptId: p.id, conversationId: p.conversationId, userId: p.userId });
  const start = (p: Prompt) => handler!({ type: 'prompt.started', prompt: p, ...scope(p) } as TesseraEvent);
  const end = (p: Prompt) => handler!({ type: 'prompt.completed', prompt: p, ...scope(p) } as TesseraEvent);
  const resumed = (p: Prompt) =>
    handler!({ type: 'prompt.resumed', state: 'running', ...scope(p) } as TesseraEvent);
  const delta = (p: Prompt) =>
    handler!({ type: 'prompt.text-delta', outputId: 'o', delta: 'x', ...scope(p) } as TesseraEvent);
  /** The prompt ids of the events each conversation's log got. */
  const got = (conversationId: string) =>
    (log.since(conversationId, `${log.boot}-0`) ?? []).map(
      (entry) =>
        JSON.parse(new TextDecoder().decode(entry.frame).split('\n')[1]!.slice(6)).promptId as string,
    );
  return { log, prompt, start, end, resumed, delta, got, followed };
}

describe('event log: the events of the prompts that run for a conversation', () => {
  it("forwards a child's and a grandchild's events up, unchanged, only to their own user's conversations", () => {
    const { log, prompt, start, delta, got } = logOf();
    const top = prompt('p0', 'c0', 'u');
    start(top);
    const child = prompt('p1', 'c1', 'u', { conversationId: 'c0', promptId: 'p0' });
    start(child);
    const grandchild = prompt('p2', 'c2', 'u', { conversationId: 'c1', promptId: 'p1' });
    start(grandchild);
    delta(grandchild);
    expect(got('c0')).toEqual(['p0', 'p1', 'p2', 'p2']);
    expect(got('c1')).toEqual(['p1', 'p2', 'p2']);
    expect(got('c2')).toEqual(['p2', 'p2']);
    expect(log.ancestorsOf('p2')).toEqual(['c1', 'c0']);
    // Another user's prompt naming c0 as its parent is not forwarded; nor one naming a conversation never seen.
    const intruder = prompt('q1', 'd1', 'v', { conversationId: 'c0', promptId: 'p0' });
    start(intruder);
    delta(intruder);
    start(prompt('q2', 'd2', 'u', { conversationId: 'unknown', promptId: 'x' }));
    expect(got('c0')).toEqual(['p0', 'p1', 'p2', 'p2']);
    expect(log.ancestorsOf('q1')).toEqual([]);
  });

  it('forwards at most MAX_FORWARD_DEPTH conversations up, and a cycle ends where a conversation repeats', () => {
    const { log, prompt, start } = logOf();
    start(prompt('p0', 'c0', 'u'));
    for (let i = 1; i <= MAX_FORWARD_DEPTH + 3; i++)
      start(prompt(`p${i}`, `c${i}`, 'u', { conversationId: `c${i - 1}`, promptId: `p${i - 1}` }));
    const deepest = log.ancestorsOf(`p${MAX_FORWARD_DEPTH + 3}`);
    expect(deepest).toHaveLength(MAX_FORWARD_DEPTH);
    expect(deepest[0]).toBe(`c${MAX_FORWARD_DEPTH + 2}`);
    // A prompt of c1 whose parent is below it: c1 is not among its own ancestors.
    start(prompt('loop', 'c1', 'u', { conversationId: 'c3', promptId: 'p3' }));
    expect(log.ancestorsOf('loop')).toEqual(['c3', 'c2', 'c0']);
    // Its own conversation as its parent: no link.
    start(prompt('self', 'c1', 'u', { conversationId: 'c1', promptId: 'p1' }));
    expect(log.ancestorsOf('self')).toEqual([]);
  });

  it('keeps at most maxLinkedPrompts links and maxOwners users, the oldest going first', () => {
    const { log, prompt, start } = logOf({ maxLinkedPrompts: 3, maxOwners: 50 });
    start(prompt('p0', 'c0', 'u'));
    for (let i = 1; i <= 10; i++)
      start(prompt(`p${i}`, `c${i}`, 'u', { conversationId: 'c0', promptId: 'p0' }));
    expect(log.linked).toBe(3);
    expect(log.ancestorsOf('p1')).toEqual([]);
    expect(log.ancestorsOf('p10')).toEqual(['c0']);
    const owners = logOf({ maxOwners: 2 });
    owners.start(owners.prompt('p0', 'c0', 'u'));
    owners.start(owners.prompt('p1', 'c1', 'u'));
    owners.start(owners.prompt('p2', 'c2', 'u'));
    // c0's user is forgotten: a child of it is not linked (unknown is never trusted).
    owners.start(owners.prompt('p3', 'c3', 'u', { conversationId: 'c0', promptId: 'p0' }));
    expect(owners.log.ancestorsOf('p3')).toEqual([]);
  });

  it("follows on the relay, for a stream of the parent, its user's topic and a live child's conversation", () => {
    const { log, prompt, start, end, followed } = logOf();
    log.owns('c0', 'u');
    const close = log.listen('c0', () => {});
    expect(followed.sort()).toEqual(['conversation:c0', 'user:u']);
    const child = prompt('p1', 'c1', 'u', { conversationId: 'c0', promptId: 'p0' });
    start(child);
    expect(followed.sort()).toEqual(['conversation:c0', 'conversation:c1', 'user:u']);
    // Its topic stays followed a while after its end (the end's copies on its other topics may be on their
    // way), until 16 more children ended.
    end(child);
    expect(followed.sort()).toEqual(['conversation:c0', 'conversation:c1', 'user:u']);
    for (let i = 0; i < 16; i++) {
      const other = prompt(`o${i}`, `d${i}`, 'u', { conversationId: 'c0', promptId: 'p0' });
      start(other);
      end(other);
    }
    expect(followed).not.toContain('conversation:c1');
    expect(followed).toHaveLength(2 + 16);
    // A child that started before the stream: its topic is followed from the stream's start.
    close();
    expect(followed).toEqual([]);
    const later = prompt('p2', 'c2', 'u', { conversationId: 'c0', promptId: 'p0' });
    start(later);
    expect(followed).toEqual([]);
    const again = log.listen('c0', () => {});
    expect(followed.sort()).toEqual(['conversation:c0', 'conversation:c2', 'user:u']);
    again();
    expect(followed).toEqual([]);
  });

  it('reads a child it did not see start at its resumption, while a stream of its user is open, and its ancestors', async () => {
    const stored = new Map<string, Prompt>();
    const reads: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { log, prompt, resumed, delta, got } = logOf({
      lookup: async (id) => {
        reads.push(id);
        await gate;
        return stored.get(id);
      },
    });
    const top = prompt('p0', 'c0', 'u');
    const child = prompt('p1', 'c1', 'u', { conversationId: 'c0', promptId: 'p0' });
    const grandchild = prompt('p2', 'c2', 'u', { conversationId: 'c1', promptId: 'p1' });
    for (const p of [top, child, grandchild]) stored.set(p.id, p);
    // No stream of the user here: nothing is read.
    resumed(grandchild);
    expect(reads).toEqual([]);
    log.owns('c0', 'u');
    const close = log.listen('c0', () => {});
    const other = prompt('q1', 'd1', 'v', { conversationId: 'c0', promptId: 'p0' });
    resumed(other); // another user's: no stream of theirs here
    expect(reads).toEqual([]);
    resumed(grandchild);
    delta(grandchild); // held while it is read
    release();
    await vi.waitFor(() => expect(log.ancestorsOf('p2')).toEqual(['c1', 'c0']));
    expect(reads).toEqual(['p2', 'p1', 'p0']);
    expect(got('c0')).toEqual(['p2', 'p2']);
    delta(grandchild);
    expect(got('c0')).toEqual(['p2', 'p2', 'p2']);
    // A top-level prompt is read once, then known not to be a child.
    resumed(top);
    await vi.waitFor(() => expect(reads).toEqual(['p2', 'p1', 'p0', 'p0']));
    resumed(top);
    expect(reads).toHaveLength(4);
    close();
  });
});
