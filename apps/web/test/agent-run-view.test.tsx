import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '../src/api.ts';
import { OutputView } from '../src/outputs/OutputView.tsx';

afterEach(cleanup);

const run = (fields: Record<string, unknown>) =>
  render(
    <OutputView
      output={
        {
          id: 'o1',
          createdAt: '2026-01-01T00:00:00.000Z',
          type: 'agent-run',
          toolCallId: 'out_call',
          agent: 'researcher',
          conversationId: 'conv_child 1',
          promptId: 'agent_out_call',
          task: 'Find the <b>facts</b>',
          depth: 1,
          history: 'task',
          ...fields,
        } as Output
      }
      fileUrl={() => ''}
      onDecide={vi.fn(async () => {})}
    />,
  );

describe("a sub-agent's run in the parent's record", () => {
  it('names the agent and its state, links its conversation, and keeps the task as text', () => {
    const { container } = run({
      state: 'completed',
      summary: "Agent 'researcher' completed after 2 model calls.",
    });
    const section = screen.getByRole('region', { name: 'Sub-agent researcher' });
    expect(section.textContent).toContain('done');
    expect(section.textContent).toContain('completed after 2 model calls');
    expect(screen.getByRole('link', { name: 'Open its conversation' }).getAttribute('href')).toBe(
      '#conv_child%201',
    );
    expect(container.querySelector('b')).toBeNull(); // the task is text, never markup
    expect(container.querySelector('.unknown-output')).toBeNull();
  });

  it('says when it waits for the user, and where to decide', () => {
    run({ state: 'waiting_for_approval' });
    expect(screen.getByRole('region', { name: 'Sub-agent researcher' }).textContent).toContain(
      'decide its call in its conversation or in the Inbox',
    );
  });

  it("shows a parent's suspended agent call as waiting, with nothing to approve before it runs", () => {
    const call = (fields: Record<string, unknown>) =>
      render(
        <OutputView
          output={
            {
              id: 'out_call',
              createdAt: '2026-01-01T00:00:00.000Z',
              type: 'tool',
              callId: 'c1',
              toolId: 'agent.cleaner',
              input: { task: 'Delete alpha' },
              result: {
                type: 'pending',
                reason: "Agent 'cleaner' waits for your decision in its conversation.",
              },
              ...fields,
            } as Output
          }
          fileUrl={() => ''}
          onDecide={vi.fn(async () => {})}
        />,
      );
    call({ startedAt: '2026-01-01T00:00:01.000Z' });
    // A line saying what it waits for; its decisions (Check again first) folded under "Other decisions".
    const waiting = screen.getByRole('region', { name: 'agent.cleaner waits' });
    expect(waiting.textContent).toContain(
      "agent.cleaner waits: Agent 'cleaner' waits for your decision in its conversation. It goes on by itself",
    );
    expect(waiting.querySelector('details')?.open).toBe(false);
    expect(screen.getByRole('button', { name: 'Check again', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit arguments' })).toBeNull();
    cleanup();
    call({}); // not started: an approval, as before
    expect(screen.getByRole('region', { name: 'Approval needed for agent.cleaner' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
  });
});
