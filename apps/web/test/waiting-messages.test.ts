import { describe, expect, it } from 'vitest';
import type { QueuedMessage } from '../src/QueuedMessages.tsx';
import { applyWaiting, notRecorded } from '../src/waiting-messages.ts';

const message = (id: string, mode: 'steer' | 'queue' = 'queue'): QueuedMessage => ({
  id,
  mode,
  input: `text of ${id}`,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('the waiting messages, kept by the event stream', () => {
  it('adds a sent message once, in order, and drops it when removed, read or started', () => {
    let waiting = [message('msg_a')];
    waiting = applyWaiting(waiting, {
      type: 'message.queued',
      promptId: 'msg_b',
      message: message('msg_b', 'steer'),
    });
    waiting = applyWaiting(waiting, {
      type: 'message.queued',
      promptId: 'msg_b',
      message: message('msg_b', 'steer'),
    });
    waiting = applyWaiting(waiting, { type: 'message.queued', promptId: 'msg_c', message: message('msg_c') });
    expect(waiting.map((m) => m.id)).toEqual(['msg_a', 'msg_b', 'msg_c']);
    waiting = applyWaiting(waiting, { type: 'prompt.steered', promptId: 'prm_1', messageId: 'msg_b' });
    waiting = applyWaiting(waiting, { type: 'prompt.started', promptId: 'msg_a' });
    expect(waiting.map((m) => m.id)).toEqual(['msg_c']);
    waiting = applyWaiting(waiting, { type: 'message.removed', promptId: 'msg_c', messageId: 'msg_c' });
    expect(waiting).toEqual([]);
  });

  it('drops a steering message once the running prompt records it, and lists it again when given back', () => {
    let waiting = [message('msg_a', 'steer'), message('msg_b')];
    waiting = applyWaiting(waiting, {
      type: 'prompt.output',
      promptId: 'prm_1',
      output: { type: 'steering', messageId: 'msg_a' },
    });
    expect(waiting.map((m) => m.id)).toEqual(['msg_b']);
    // The prompt ended before the model answered it: it waits again.
    waiting = applyWaiting(waiting, {
      type: 'message.queued',
      promptId: 'msg_a',
      message: message('msg_a', 'steer'),
    });
    expect(waiting.map((m) => m.id)).toEqual(['msg_b', 'msg_a']);
    expect(
      notRecorded(waiting, [{ output: [{ type: 'steering', messageId: 'msg_b' }] }]).map((m) => m.id),
    ).toEqual(['msg_a']);
  });

  it('leaves the list as it is for other events, and for a prompt that was no message', () => {
    const waiting = [message('msg_a')];
    expect(applyWaiting(waiting, { type: 'prompt.started', promptId: 'prm_x' })).toBe(waiting);
    expect(applyWaiting(waiting, { type: 'prompt.text-delta', promptId: 'prm_x' })).toBe(waiting);
  });
});
