import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Output, Prompt } from '../src/api.ts';
import {
  applyChildEvent,
  type ChildRuns,
  ChildRunsContext,
  MAX_INLINE_DEPTH,
  NO_CHILD_RUNS,
  seedChildRun,
} from '../src/child-runs.ts';
import type { ServerEvent } from '../src/conversation-state.ts';
import { OutputView } from '../src/outputs/OutputView.tsx';

afterEach(cleanup);

const prompt = (id: string, fields: Partial<Prompt> = {}): Prompt =>
  ({
    id,
    conversationId: `conv_${id}`,
    userId: 'ada',
    state: 'running',
    input: 'task',
    output: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  }) as unknown as Prompt;

const text = (id: string, value: string) =>
  ({ id, type: 'text', text: value, createdAt: '2026-01-01T00:00:00.000Z' }) as unknown as Output;

const pendingCall = (id: string) =>
  ({
    id,
    type: 'tool',
    callId: 'c',
    toolId: 'demo.delete_records',
    input: { names: ['alpha'] },
    createdAt: '2026-01-01T00:00:00.000Z',
    result: { type: 'pending', reason: 'This permanently deletes 1 record(s): alpha.' },
  }) as unknown as Output;

const agentRun = (promptId: string, agent: string, state: string) =>
  ({
    id: `run_${promptId}`,
    type: 'agent-run',
    createdAt: '2026-01-01T00:00:00.000Z',
    toolCallId: `call_${promptId}`,
    agent,
    conversationId: `conv_${promptId}`,
    promptId,
    task: `Task of ${agent}`,
    depth: 1,
    state,
  }) as unknown as Output;

const event = (promptId: string, type: string, fields: Partial<ServerEvent> = {}): ServerEvent => ({
  type,
  promptId,
  conversationId: `conv_${promptId}`,
  ...fields,
});

describe('child runs: the events of prompts that run for a conversation', () => {
  it('starts with prompt.started, applies outputs and text, and takes a read prompt only if newer', () => {
    let runs = applyChildEvent(NO_CHILD_RUNS, event('c1', 'prompt.output', { output: text('o0', 'lost') }));
    expect(runs.prompts).toEqual({}); // not seen yet: left out (read whole when shown)
    runs = applyChildEvent(runs, event('c1', 'prompt.started', { prompt: prompt('c1') }));
    runs = applyChildEvent(runs, event('c1', 'prompt.text-delta', { outputId: 'o1', delta: 'Hel' }));
    expect(runs.streaming.c1).toEqual({ o1: 'Hel' });
    runs = applyChildEvent(runs, event('c1', 'prompt.output', { output: text('o1', 'Hello') }));
    expect(runs.prompts.c1!.output).toHaveLength(1);
    expect(runs.streaming.c1).toEqual({});
    // A read that raced the events (as old as the copy kept) does not undo them; a newer one is taken.
    expect(seedChildRun(runs, prompt('c1'))).toBe(runs);
    const newer = prompt('c1', { state: 'completed', updatedAt: '2026-01-01T00:00:05.000Z' });
    expect(seedChildRun(runs, newer).prompts.c1!.state).toBe('completed');
    // First seen at its end: shown as it ended.
    const ended = prompt('c2', { state: 'completed' });
    expect(applyChildEvent(runs, event('c2', 'prompt.completed', { prompt: ended })).prompts.c2).toBe(ended);
  });

  it("reads only its own keys: a prompt id named like an object's property is a prompt like any", () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      // Not seen yet: an output of it is left out, as for any id (an inherited member is no prompt).
      let runs = applyChildEvent(NO_CHILD_RUNS, event(id, 'prompt.output', { output: text('o1', 'x') }));
      expect(Object.keys(runs.prompts), id).toEqual([]);
      expect(seedChildRun(runs, prompt(id)).prompts[id]?.id, id).toBe(id);
      runs = applyChildEvent(runs, event(id, 'prompt.started', { prompt: prompt(id) }));
      runs = applyChildEvent(runs, event(id, 'prompt.text-delta', { outputId: 'o1', delta: 'Hi' }));
      expect(Object.hasOwn(runs.prompts, id), id).toBe(true);
      expect(runs.streaming[id], id).toEqual({ o1: 'Hi' });
    }
  });

  it('keeps at most 200 child prompts, the least recently changed going first', () => {
    let runs: ChildRuns = NO_CHILD_RUNS;
    for (let i = 0; i < 250; i++)
      runs = applyChildEvent(runs, event(`p${i}`, 'prompt.started', { prompt: prompt(`p${i}`) }));
    expect(Object.keys(runs.prompts)).toHaveLength(200);
    expect(runs.prompts.p0).toBeUndefined();
    expect(runs.prompts.p249).toBeDefined();
  });
});

/** A conversation's record around one agent-run card, its child runs fed by the test's events. */
function Record({
  output,
  initial,
  onDecide,
  feed,
}: {
  output: Output;
  initial: ChildRuns;
  onDecide: (id: string, decision: unknown) => Promise<void>;
  feed: (apply: (e: ServerEvent) => void) => void;
}) {
  const [runs, setRuns] = useState(initial);
  feed((e) => setRuns((r) => applyChildEvent(r, e)));
  return (
    <ChildRunsContext value={{ runs, load: async () => {}, fileUrl: () => '' }}>
      <OutputView output={output} fileUrl={() => ''} onDecide={onDecide} />
    </ChildRunsContext>
  );
}

describe("a sub-agent's run inline in the parent's card", () => {
  it('opens while it waits, nests the grandchild, decides its call in place, and updates live', async () => {
    const grandchild = prompt('g1', { state: 'waiting_for_approval', output: [pendingCall('call_x')] });
    const child = prompt('c1', {
      state: 'waiting_for_approval',
      output: [agentRun('g1', 'cleaner', 'waiting_for_approval')],
    });
    let apply: (e: ServerEvent) => void = () => {};
    const onDecide = vi.fn(async () => {});
    render(
      <Record
        output={agentRun('c1', 'manager', 'waiting_for_approval')}
        initial={{ prompts: { c1: child, g1: grandchild }, streaming: {} }}
        onDecide={onDecide}
        feed={(a) => {
          apply = a;
        }}
      />,
    );
    const outer = screen.getByRole('region', { name: 'Run of agent manager' });
    const inner = screen.getByRole('region', { name: 'Run of agent cleaner' });
    expect(outer.contains(inner)).toBe(true);
    expect(screen.getByRole('button', { name: 'Agent manager' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(onDecide).toHaveBeenCalledWith('call_x', { approve: true }));
    // The grandchild's answer streams in, live.
    act(() => apply(event('g1', 'prompt.resumed', { state: 'running' })));
    act(() => apply(event('g1', 'prompt.text-delta', { outputId: 'o9', delta: 'I deleted alpha.' })));
    expect(inner.textContent).toContain('I deleted alpha.');
  });

  it('is collapsed once ended, opens on a click, and is a link only past MAX_INLINE_DEPTH', () => {
    const child = prompt('c1', { state: 'completed', output: [text('t', 'All done.')] });
    render(
      <Record
        output={{ ...agentRun('c1', 'manager', 'completed'), summary: 'It completed.' }}
        initial={{ prompts: { c1: child }, streaming: {} }}
        onDecide={async () => {}}
        feed={() => {}}
      />,
    );
    const toggle = screen.getByRole('button', { name: 'Agent manager' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('All done.')).toBeNull();
    expect(screen.getByText('It completed.')).toBeTruthy();
    fireEvent.click(toggle);
    expect(screen.getByText('All done.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open its conversation' })).toBeTruthy();
    cleanup();

    // A chain deeper than MAX_INLINE_DEPTH: the deepest shown is a card with its link, not its run.
    const prompts: Record<string, Prompt> = {};
    for (let i = 1; i <= MAX_INLINE_DEPTH + 1; i++) {
      prompts[`d${i}`] = prompt(`d${i}`, {
        state: 'waiting_for_approval',
        output: i <= MAX_INLINE_DEPTH ? [agentRun(`d${i + 1}`, `level${i + 1}`, 'waiting_for_approval')] : [],
      });
    }
    render(
      <Record
        output={agentRun('d1', 'level1', 'waiting_for_approval')}
        initial={{ prompts, streaming: {} }}
        onDecide={async () => {}}
        feed={() => {}}
      />,
    );
    expect(screen.getAllByRole('region', { name: /^Run of agent/ })).toHaveLength(MAX_INLINE_DEPTH);
    expect(screen.getAllByRole('link', { name: 'Open its conversation' })).toHaveLength(MAX_INLINE_DEPTH + 1);
  });
});
