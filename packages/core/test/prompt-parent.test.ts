import { expect, it } from 'vitest';
import { parentOf } from '../src/index.ts';

it('parentOf reads the call a prompt runs for from its metadata, and nothing from a malformed one', () => {
  const parent = { conversationId: 'cnv_a', promptId: 'prm_a', toolCallId: 'tc_a' };
  expect(parentOf({ metadata: { agent: 'worker', parent } })).toEqual(parent);
  expect(parentOf({ metadata: { parent: { conversationId: 'cnv_a', promptId: 'prm_a' } } })).toEqual({
    conversationId: 'cnv_a',
    promptId: 'prm_a',
  });
  for (const metadata of [
    undefined,
    {},
    { parent: 'prm_a' },
    { parent: { promptId: 'prm_a' } },
    { parent: { conversationId: '', promptId: 'prm_a' } },
    { parent: { conversationId: 'cnv_a', promptId: 'x'.repeat(201) } },
    { parent: { conversationId: 'cnv_a', promptId: 'prm_a', toolCallId: 7 } },
  ]) {
    expect(parentOf({ metadata }), JSON.stringify(metadata)).toBeUndefined();
  }
});
