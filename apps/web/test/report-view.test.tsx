import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Output } from '../src/api.ts';
import { CompactionMarker } from '../src/report/CompactionMarker.tsx';
import { ContextMeter } from '../src/report/ContextMeter.tsx';
import type { PromptReport } from '../src/report/prompt-report.ts';
import { Timeline } from '../src/report/Timeline.tsx';

afterEach(cleanup);

const report: PromptReport = {
  promptId: 'prm_1',
  state: 'completed',
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:02.000Z',
  totalMs: 2000,
  stop: 'completed',
  modelCalls: [
    {
      responseId: 'rsp_1',
      model: 'gpt-5',
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:00.800Z',
      latencyMs: 800,
      timeToFirstTokenMs: 400,
      inputTokens: 1200,
      outputTokens: 40,
      cachedInputTokens: 1000,
      reasoningTokens: 0,
      finishReason: 'tool_calls',
      toolCalls: 1,
    },
    {
      responseId: 'rsp_2',
      startedAt: '2026-01-01T00:00:01.200Z',
      endedAt: '2026-01-01T00:00:02.000Z',
      latencyMs: 800,
      inputTokens: 1300,
      outputTokens: 90,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      finishReason: 'stop',
      toolCalls: 0,
    },
  ],
  toolCalls: [
    {
      id: 'call_1',
      callId: 'c1',
      toolId: 'demo.weather',
      startedAt: '2026-01-01T00:00:00.800Z',
      endedAt: '2026-01-01T00:00:01.200Z',
      latencyMs: 400,
      resultBytes: 2048,
      outcome: 'success',
    },
  ],
  totals: {
    modelCalls: 2,
    toolCalls: 1,
    failedToolCalls: 0,
    inputTokens: 2500,
    outputTokens: 130,
    cachedInputTokens: 1000,
    reasoningTokens: 0,
    modelMs: 1600,
    toolMs: 400,
  },
};

describe('the run report view', () => {
  it('draws a bar per model call and tool call, in time order, placed on one axis', () => {
    const { container } = render(<Timeline report={report} />);
    const rows = [...container.querySelectorAll('.timeline-row:not(.timeline-axis)')];
    expect(rows.map((row) => row.querySelector('.timeline-name')?.textContent)).toEqual([
      'Model call 1',
      'demo.weather',
      'Model call 2',
    ]);
    const bars = rows.map((row) => row.querySelector<HTMLElement>('.timeline-bar')!);
    expect(bars.map((bar) => bar.style.left)).toEqual(['0%', '40%', '60%']);
    expect(bars[1]!.className).toContain('tone-success');
    // The wait for the first token is half of the first call.
    expect(bars[0]!.querySelector<HTMLElement>('.timeline-wait')!.style.width).toBe('50%');
    expect(screen.getByText('400 ms · 2.0 kB · success')).toBeTruthy();
    expect(screen.getByText('800 ms · 1,200 in (1,000 cached) · 40 out')).toBeTruthy();
  });

  it('shows how full the context is against its budget', () => {
    render(
      <ContextMeter context={{ tokens: 80_000, reported: 78_000, estimated: 2_000, budget: 100_000 }} />,
    );
    expect(screen.getByText('80.0k of 100k tokens (80%)')).toBeTruthy();
    expect(document.querySelector('.context-meter')!.className).toContain('context-high');
  });

  it('marks where history was summarized, with the summary, and where it could not be', () => {
    const base = { id: 'o1', createdAt: report.startedAt, type: 'compaction', through: 'prm_0', prompts: 3 };
    render(
      <CompactionMarker
        output={{ ...base, summary: 'The user has a cat, Miso.', tokensBefore: 90_000 } as Output}
      />,
    );
    expect(
      screen.getByText('3 earlier messages summarized to save room (90.0k tokens in the context)'),
    ).toBeTruthy();
    expect(screen.getByText('The user has a cat, Miso.')).toBeTruthy();
    cleanup();
    render(
      <CompactionMarker
        output={{ ...base, error: 'The summary call failed.', tokensBefore: 90_000 } as Output}
      />,
    );
    expect(screen.getByRole('note').textContent).toContain(
      '3 earlier messages are no longer sent to the model',
    );
  });
});
