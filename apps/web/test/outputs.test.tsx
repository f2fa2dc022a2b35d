import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '../src/api.ts';
import { applyEvent } from '../src/conversation-state.ts';
import { OutputView } from '../src/outputs/OutputView.tsx';

afterEach(cleanup);

const at = '2026-01-01T00:00:00.000Z';
const fileUrl = (id: string, inline: boolean) => `/files/${id}${inline ? '?inline=1' : ''}`;
const view = (output: Record<string, unknown>, onDecide = vi.fn(async () => {})) =>
  render(
    <OutputView
      output={{ id: 'o1', createdAt: at, ...output } as Output}
      fileUrl={fileUrl}
      onDecide={onDecide}
    />,
  );

describe('output renderers', () => {
  it('renders Markdown text and never raw HTML from the model', () => {
    const { container } = view({
      type: 'text',
      text: '**bold** <img src=x onerror="alert(1)"> <script>alert(1)</script>',
    });
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
  });

  it('shows a tool call as a card with its status and duration, expandable to input and result', () => {
    view({
      type: 'tool',
      toolId: 'weather.get',
      input: { city: 'Paris' },
      result: { type: 'success', output: { temp: 21 } },
      startedAt: at,
      endedAt: '2026-01-01T00:00:00.250Z',
    });
    expect(screen.getByText('weather.get')).toBeTruthy();
    expect(screen.getByText('success')).toBeTruthy();
    expect(screen.getByText('250 ms')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByText(/"temp": 21/)).toBeTruthy();
  });

  it('marks a running tool call and an error', () => {
    view({ type: 'tool', toolId: 'slow.op', input: {}, startedAt: at });
    expect(screen.getByText('running')).toBeTruthy();
    cleanup();
    view({
      type: 'tool',
      toolId: 'bad.op',
      input: {},
      result: { type: 'error', error: { code: 'tool_failed', message: 'boom' } },
    });
    expect(screen.getByText('error')).toBeTruthy();
  });

  it('shows a pending call as an approval card whose buttons decide it', async () => {
    const onDecide = vi.fn(async () => {});
    view(
      {
        type: 'tool',
        toolId: 'demo.delete',
        input: { id: 'a' },
        result: { type: 'pending', reason: 'Deletes data.' },
      },
      onDecide,
    );
    expect(screen.getByRole('region', { name: 'Approval needed for demo.delete' }).textContent).toContain(
      'Deletes data.',
    );
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'not now' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await vi.waitFor(() => expect(onDecide).toHaveBeenCalledWith('o1', false, 'not now'));
  });

  it('renders the generic widgets by type, and the fallback text for unknown ones', () => {
    const { container } = view({
      type: 'widget',
      widget: 'table',
      fallback: 'table',
      data: { columns: [{ key: 'a', label: 'A' }], rows: [{ a: 1 }, { a: 2 }] },
    });
    expect(container.querySelectorAll('tbody tr')).toHaveLength(2);
    cleanup();
    view({
      type: 'widget',
      widget: 'key-value',
      fallback: '',
      data: { title: 'Card', items: [{ label: 'Now', value: '21 °C' }] },
    });
    expect(screen.getByText('21 °C')).toBeTruthy();
    cleanup();
    const chart = view({
      type: 'widget',
      widget: 'chart',
      fallback: '',
      data: {
        kind: 'line',
        series: [
          {
            name: 's',
            points: [
              { x: 'a', y: 1 },
              { x: 'b', y: 3 },
            ],
          },
        ],
      },
    });
    expect(chart.container.querySelector('polyline')).toBeTruthy();
    cleanup();
    view({ type: 'widget', widget: 'map', fallback: 'A map of Paris', data: {} });
    expect(screen.getByText('A map of Paris')).toBeTruthy();
  });

  it('shows a file as a download link with name, type and size', () => {
    view({ type: 'file', fileId: 'f1', name: 'photo.png', mediaType: 'image/png', size: 2048 });
    const link = screen.getByRole('link', { name: 'photo.png' });
    expect(link.getAttribute('href')).toBe('/files/f1');
    expect(screen.getByText(/image\/png · 2.0 KB/)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'photo.png' }).getAttribute('src')).toBe('/files/f1?inline=1');
  });

  it('marks a refusal as refused, apart from an answer', () => {
    const { container } = view({ type: 'text', text: "I can't help with that.", refusal: true });
    expect(container.querySelector('.text-output.refused')?.textContent).toContain("I can't help with that.");
    expect(screen.getByText('Refused')).toBeTruthy();
    cleanup();
    const answer = view({ type: 'text', text: 'Sure.' });
    expect(answer.container.querySelector('.refused')).toBeNull();
  });

  it('shows reasoning text (compatible servers) like a summary, and nothing for opaque reasoning', () => {
    const { container } = view({ type: 'reasoning', text: 'The user wants the weather.' });
    expect(container.querySelector('details.reasoning')?.textContent).toContain(
      'The user wants the weather.',
    );
    cleanup();
    view({ type: 'reasoning', summary: 'Checked the forecast.', text: 'Step by step.' });
    expect(screen.getByText('Checked the forecast.')).toBeTruthy();
    expect(screen.getByText('Step by step.')).toBeTruthy();
    cleanup();
    const opaque = view({ type: 'reasoning', providerData: { encrypted_content: 'x' } });
    expect(opaque.container.innerHTML).toBe('');
  });

  it('shows an output of a type it does not know as data', () => {
    view({ type: 'x-badges.badge', label: 'Gold' });
    expect(screen.getByText(/"label": "Gold"/)).toBeTruthy();
  });
});

describe('the live record', () => {
  it('follows the events: new outputs, updates in place, streamed text, and the end', () => {
    const prompt = { id: 'p1', state: 'running', output: [], usage: {} } as never;
    let state = applyEvent(
      { prompts: [], streaming: {} },
      { type: 'prompt.started', promptId: 'p1', prompt },
    );
    state = applyEvent(state, {
      type: 'prompt.output',
      promptId: 'p1',
      output: { id: 't1', type: 'tool', createdAt: at } as Output,
    });
    state = applyEvent(state, {
      type: 'prompt.output-updated',
      promptId: 'p1',
      output: { id: 't1', type: 'tool', createdAt: at, result: { type: 'success', output: 1 } } as Output,
    });
    state = applyEvent(state, { type: 'prompt.text-delta', promptId: 'p1', outputId: 'x1', delta: 'Hel' });
    state = applyEvent(state, { type: 'prompt.text-delta', promptId: 'p1', outputId: 'x1', delta: 'lo' });
    expect(state.streaming).toEqual({ x1: 'Hello' });
    state = applyEvent(state, {
      type: 'prompt.output',
      promptId: 'p1',
      output: { id: 'x1', type: 'text', text: 'Hello', createdAt: at } as Output,
    });
    expect(state.streaming).toEqual({});
    expect(state.prompts[0]!.output.map((o) => o.type)).toEqual(['tool', 'text']);
    expect((state.prompts[0]!.output[0] as Output).result).toEqual({ type: 'success', output: 1 });
    // An output taken out (a call run again after a crash) goes.
    const removed = applyEvent(state, { type: 'prompt.output-removed', promptId: 'p1', outputId: 't1' });
    expect(removed.prompts[0]!.output.map((o) => o.id)).toEqual(['x1']);
    // Replayed events (after a reconnect) change nothing.
    expect(applyEvent(state, { type: 'prompt.started', promptId: 'p1', prompt })).toBe(state);
  });
});
