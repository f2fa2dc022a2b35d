import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, PendingApproval, PendingPause } from '../src/api.ts';
import { Inbox } from '../src/Inbox.tsx';

afterEach(cleanup);

// A tree waiting for the user (issue 31): the user's prompt (Trip planning) asked the researcher, which asked
// the booker; the booker's call needs approval, and the researcher's other agent, the scout, paused.
const top = { conversationId: 'conv_trip', promptId: 'prm_trip', title: 'Trip planning' };
const researcher = {
  conversationId: 'conv_r',
  promptId: 'prm_r',
  agent: 'researcher',
  title: 'researcher: …',
};
const booker = { conversationId: 'conv_b', promptId: 'prm_b', agent: 'booker' };
const scout = { conversationId: 'conv_s', promptId: 'prm_s', agent: 'scout' };
const call = (
  step: { conversationId: string; promptId: string },
  toolCallId: string,
  toolId: string,
  path: object[],
  more: Partial<PendingApproval> = {},
) =>
  ({
    toolCallId,
    promptId: step.promptId,
    conversationId: step.conversationId,
    toolId,
    input: {},
    reason: `${toolId} waits`,
    createdAt: '2026-01-01T00:00:00.000Z',
    path: [...path, { ...step, toolCallId, toolId }],
    ...more,
  }) as PendingApproval;

const approvals = [
  call(top, 'call_1', 'agent.researcher', [], {
    startedAt: '2026-01-01T00:00:01.000Z',
    waitsOn: { conversationId: researcher.conversationId, promptId: researcher.promptId },
  }),
  call(researcher, 'call_2', 'agent.booker', [{ ...top, toolCallId: 'call_1', toolId: 'agent.researcher' }], {
    startedAt: '2026-01-01T00:00:02.000Z',
    waitsOn: { conversationId: booker.conversationId, promptId: booker.promptId },
  }),
  call(top, 'call_4', 'agent.scout', [], {
    startedAt: '2026-01-01T00:00:01.000Z',
    waitsOn: { conversationId: scout.conversationId, promptId: scout.promptId },
  }),
  call(booker, 'call_3', 'work.do', [
    { ...top, toolCallId: 'call_1', toolId: 'agent.researcher' },
    { ...researcher, toolCallId: 'call_2', toolId: 'agent.booker' },
  ]),
];
const pauses = [
  {
    pauseId: 'out_pause',
    promptId: scout.promptId,
    conversationId: scout.conversationId,
    source: 'budget',
    budget: { name: 'maxRounds', limit: 1, used: 1 },
    reason: 'The prompt reached its maxRounds budget (1).',
    createdAt: '2026-01-01T00:00:03.000Z',
    path: [{ ...top, toolCallId: 'call_4', toolId: 'agent.scout' }, scout],
  },
] as PendingPause[];

describe('the inbox, with sub-agents', () => {
  it("lists a tree's calls and pauses under the user's conversation, each with its path, agents' calls waiting", () => {
    render(
      <Inbox api={{} as Api} approvals={approvals} pauses={pauses} conversations={[]} onDecided={vi.fn()} />,
    );
    // One group: the user's conversation.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Trip planning']);
    const path = screen.getByRole('navigation', { name: 'Where work.do is' });
    expect(
      within(path)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Trip planning', '#conv_trip'],
      ['researcher', '#conv_r'],
      ['booker', '#conv_b'],
    ]);
    expect(path.textContent).toBe('Trip planning›researcher›booker›work.do');
    const paused = screen.getByRole('navigation', { name: 'Where paused is' });
    expect(paused.textContent).toBe('Trip planning›scout›paused');
    // The agents' calls wait on their sub-agents: what to decide, and no Approve of their own.
    const waiting = (toolId: string) =>
      screen.getByRole('region', { name: `${toolId} waits on its sub-agent` }).querySelector('p')
        ?.textContent;
    expect(waiting('agent.researcher')).toBe(
      'agent.researcher waits on its agent researcher: decide work.do below, and it goes on by itself.',
    );
    expect(waiting('agent.booker')).toBe(
      'agent.booker waits on its agent booker: decide work.do below, and it goes on by itself.',
    );
    expect(waiting('agent.scout')).toBe(
      'agent.scout waits on its agent scout: decide its pause below, and it goes on by itself.',
    );
    expect(screen.getAllByRole('button', { name: 'Approve' })).toHaveLength(1);
  });

  it('says only that it goes on by itself when what its sub-agent waits for is not listed', () => {
    render(
      <Inbox
        api={{} as Api}
        approvals={approvals.slice(0, 1)}
        pauses={[]}
        conversations={[]}
        onDecided={vi.fn()}
      />,
    );
    expect(
      screen.getByRole('region', { name: 'agent.researcher waits on its sub-agent' }).querySelector('p')
        ?.textContent,
    ).toBe('agent.researcher waits on its sub-agent, and goes on by itself once that is done.');
  });
});
