import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Output } from '../src/api.ts';
import { Composer } from '../src/Composer.tsx';
import { applyEvent } from '../src/conversation-state.ts';
import { budgetAmount, proposedLimit } from '../src/outputs/budget-raise.ts';
import { OutputView } from '../src/outputs/OutputView.tsx';
import { PauseCard } from '../src/outputs/PauseCard.tsx';
import { PromptView } from '../src/PromptView.tsx';

afterEach(cleanup);
// The lazy Markdown renderer's module, loaded once before the tests: transforming it and its dependencies takes
// seconds on a loaded CI machine, longer than a wait for one render should allow.
beforeAll(() => import('../src/outputs/Markdown.tsx'));

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

/** Text shows as it is until the Markdown renderer's module has loaded (see TextOutput): wait for it. */
const markdownOf = async (container: HTMLElement) => {
  await vi.waitFor(() => expect(container.querySelector('.text-output .plain-text')).toBeNull(), {
    timeout: 30_000,
  });
  return container;
};

describe('output renderers', () => {
  it('renders Markdown text and never raw HTML from the model', async () => {
    const text = '**bold** <img src=x onerror="alert(1)"> <script>alert(1)</script>';
    const { container } = view({ type: 'text', text });
    // At once, as plain text (its tags as text, never elements); then as Markdown.
    expect(container.querySelector('.plain-text')?.textContent).toBe(text);
    expect(container.querySelector('img')).toBeNull();
    await markdownOf(container);
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
    await vi.waitFor(
      () => expect(onDecide).toHaveBeenCalledWith('o1', { approve: false, reason: 'not now' }),
      {
        timeout: 30_000,
      },
    );
  });

  it('skips a pending call, or answers it with JSON or plain text (a JSON string), with the reason given', async () => {
    const onDecide = vi.fn(async () => {});
    const pending = {
      type: 'tool',
      toolId: 'demo.balance',
      input: {},
      result: { type: 'pending', reason: 'Reads your bank.' },
    };
    view(pending, onDecide);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'not needed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await vi.waitFor(
      () => expect(onDecide).toHaveBeenCalledWith('o1', { skip: true, reason: 'not needed' }),
      {
        timeout: 30_000,
      },
    );
    cleanup();

    for (const [typed, answer] of [
      ['{"balance": 120}', { balance: 120 }],
      ['about 120 euros', 'about 120 euros'],
    ] as const) {
      const answered = vi.fn(async () => {});
      view(pending, answered);
      fireEvent.click(screen.getByRole('button', { name: 'Answer…' }));
      const box = screen.getByRole('textbox', { name: /Your answer/ });
      const send = screen.getByRole('button', { name: 'Send answer' }) as HTMLButtonElement;
      expect(send.disabled).toBe(true); // nothing typed yet
      fireEvent.change(box, { target: { value: typed } });
      fireEvent.click(send);
      await vi.waitFor(() => expect(answered).toHaveBeenCalledWith('o1', { answer }), { timeout: 30_000 });
      cleanup();
    }

    // Cancel goes back to the four decisions, nothing decided.
    const none = vi.fn(async () => {});
    view(pending, none);
    fireEvent.click(screen.getByRole('button', { name: 'Answer…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Your answer/ })).toBeNull();
    expect(none).not.toHaveBeenCalled();
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
    // Columns named after Object.prototype's properties: a row without one has an empty cell, not a function.
    const inherited = view({
      type: 'widget',
      widget: 'table',
      fallback: 'table',
      data: { columns: [{ key: 'constructor' }, { key: 'toString' }, { key: 'n' }], rows: [{ n: 1 }] },
    });
    expect([...inherited.container.querySelectorAll('tbody td')].map((td) => td.textContent)).toEqual([
      '',
      '',
      '1',
    ]);
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
    // A stopped prompt ends like a failed one: its final record replaces the live one.
    const cancelled = applyEvent(state, {
      type: 'prompt.cancelled',
      promptId: 'p1',
      prompt: { ...state.prompts[0]!, state: 'cancelled' },
    });
    expect(cancelled.prompts[0]!.state).toBe('cancelled');
    // Replayed events (after a reconnect) change nothing.
    expect(applyEvent(state, { type: 'prompt.started', promptId: 'p1', prompt })).toBe(state);
  });
});

describe('Markdown from the model', () => {
  it('loads no image from another site: a placeholder shows its address, and loads it only when asked', async () => {
    const leak = 'http://127.0.0.2:9/leak.png?d=SECRET';
    const { container } = view({ type: 'text', text: `See ![chart](${leak}) and ![own](/api/files/x.png)` });
    await markdownOf(container);
    const images = [...container.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(images).toEqual(['/api/files/x.png']);
    expect(container.querySelector('.blocked-image-url')?.textContent).toBe(leak);
    expect(screen.getByText(/Image from another site, not loaded: chart/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load image' }));
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toContain(leak);
  });

  it('treats a protocol-relative image as another site, and drops javascript: links', async () => {
    const { container } = view({
      type: 'text',
      text: '![x](//127.0.0.2/a.png) [click](javascript:alert(1)) [ok](https://example.org/)',
    });
    await markdownOf(container);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('click').getAttribute('href') ?? '').not.toContain('javascript');
    const ok = screen.getByRole('link', { name: 'ok' });
    expect(ok.getAttribute('rel')).toBe('noopener noreferrer');
    expect(ok.getAttribute('target')).toBe('_blank');
  });

  it('highlights a fenced code block by class names and copies its text', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { container } = view({ type: 'text', text: '```ts\nconst answer = 42; // why\n```' });
    await markdownOf(container);
    expect(container.querySelector('.code-language')?.textContent).toBe('ts');
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('.hljs-number')?.textContent).toBe('42');
    expect(container.querySelector('[style]')).toBeNull(); // classes, no inline styles
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith('const answer = 42; // why\n'), {
      timeout: 30_000,
    });
    expect(await screen.findByText('Copied', {}, { timeout: 30_000 })).toBeTruthy();
  });
});

describe('tool cards and widgets', () => {
  it('shows a rejected call as rejected (not an error), with the reason given', () => {
    view({
      type: 'tool',
      toolId: 'demo.delete',
      input: {},
      approval: { reason: 'Deletes data.', decision: 'rejected', comment: 'not now' },
      result: { type: 'error', error: { code: 'rejected', message: 'The user did not approve this call.' } },
    });
    expect(screen.getByText('rejected').className).toContain('badge-rejected');
    expect(screen.queryByText('error')).toBeNull();
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByText('Rejected: “not now”')).toBeTruthy();
  });

  it('shows an answered call as answered by the user, and a skipped one as skipped (neither an error)', () => {
    view({
      type: 'tool',
      toolId: 'demo.balance',
      input: {},
      approval: { reason: 'Reads your bank.', decision: 'answered', comment: 'from my statement' },
      result: { type: 'success', output: { balance: 120 } },
    });
    expect(screen.getByText('answered').className).toContain('badge-answered');
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByText('Answered: “from my statement”')).toBeTruthy();
    expect(screen.getByText('Your answer, given instead of running the tool')).toBeTruthy();
    cleanup();
    view({
      type: 'tool',
      toolId: 'demo.balance',
      input: {},
      approval: { reason: 'Reads your bank.', decision: 'skipped' },
      result: { type: 'error', error: { code: 'skipped', message: 'The user chose to skip this call.' } },
    });
    expect(screen.getByText('skipped').className).toContain('badge-skipped');
    expect(screen.queryByText('error')).toBeNull();
  });

  it('aligns a numeric column and its header to the right, text to the left', () => {
    const { container } = view({
      type: 'widget',
      widget: 'table',
      fallback: '',
      data: {
        columns: [{ key: 'name' }, { key: 'units' }],
        rows: [
          { name: 'a', units: 3 },
          { name: 'b', units: null },
        ],
      },
    });
    const headers = [...container.querySelectorAll('th')].map((th) => th.className);
    expect(headers).toEqual(['align-left', 'align-right']);
    const cells = [...container.querySelectorAll('tbody tr:first-child td')].map((td) => td.className);
    expect(cells).toEqual(headers);
  });
});

const prompt = (extra: Record<string, unknown> = {}) =>
  ({
    id: 'p1',
    conversationId: 'c1',
    userId: 'ada',
    model: 'normal',
    visible: true,
    state: 'completed',
    input: 'What is 6 × 7?',
    output: [{ id: 't1', type: 'text', text: 'It is **42**.', createdAt: at }],
    usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1 },
    createdAt: at,
    updatedAt: at,
    ...extra,
  }) as never;

const promptView = (props: Partial<Parameters<typeof PromptView>[0]> = {}) =>
  render(
    <PromptView
      prompt={prompt()}
      streaming={{}}
      fileUrl={fileUrl}
      onDecide={vi.fn(async () => {})}
      {...props}
    />,
  );

describe('a prompt and its actions', () => {
  it('retries a failed prompt with the same input, and regenerates only the last answer', async () => {
    const onResend = vi.fn(async () => {});
    promptView({ prompt: prompt({ state: 'failed', output: [] }), onResend });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(onResend).toHaveBeenCalledWith('What is 6 × 7?', []), { timeout: 30_000 });
    cleanup();
    promptView({ onResend, last: false });
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
    cleanup();
    promptView({ onResend, last: true });
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    await vi.waitFor(() => expect(onResend).toHaveBeenCalledTimes(2), { timeout: 30_000 });
    cleanup();
    promptView({ onResend, last: true, busy: true });
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  it('edits a message and sends it again; Escape leaves it as it was', async () => {
    const onResend = vi.fn(async () => {});
    promptView({ onResend });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('textbox', { name: 'Edited text' });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Edited text' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Edited text' }), {
      target: { value: 'And 6 × 8?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and send' }));
    await vi.waitFor(() => expect(onResend).toHaveBeenCalledWith('And 6 × 8?', []), { timeout: 30_000 });
    await vi.waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edited text' })).toBeNull(), {
      timeout: 30_000,
    });
  });

  it('sends an edited message with Enter, as the message box does; Shift+Enter is a new line', async () => {
    const onResend = vi.fn(async () => {});
    promptView({ onResend });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('textbox', { name: 'Edited text' });
    fireEvent.change(field, { target: { value: 'And 6 × 8?' } });
    expect(fireEvent.keyDown(field, { key: 'Enter', shiftKey: true })).toBe(true); // not prevented: a new line
    expect(onResend).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter' });
    await vi.waitFor(() => expect(onResend).toHaveBeenCalledWith('And 6 × 8?', []), { timeout: 30_000 });
  });

  it('shows a failed resend in words and keeps the edit', async () => {
    const onResend = vi.fn(async () => {
      throw new Error('Cannot reach the Tessera server.');
    });
    promptView({ onResend });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and send' }));
    expect((await screen.findByRole('alert', {}, { timeout: 30_000 })).textContent).toBe(
      'Cannot reach the Tessera server.',
    );
    expect(screen.getByRole('textbox', { name: 'Edited text' })).toBeTruthy();
  });

  it("shows the user's attachments in their message, not among the answer's outputs", () => {
    const upload = {
      id: 'f1',
      type: 'file',
      fileId: 'file_1',
      name: 'notes.txt',
      mediaType: 'text/plain',
      size: 12,
      origin: 'upload',
      createdAt: at,
    };
    const { container } = promptView({ prompt: prompt({ input: undefined, output: [upload] }) });
    const attachments = screen.getByRole('list', { name: 'Attachments' });
    expect(container.querySelector('.user-input')?.contains(attachments)).toBe(true);
    expect(screen.getByRole('link', { name: /notes\.txt/ }).getAttribute('href')).toBe('/files/file_1');
    expect(container.querySelector('.outputs .file-card')).toBeNull();
    expect(screen.queryByText(/Started by/)).toBeNull();
  });

  it('names the trigger that started a prompt, never its id', () => {
    promptView({
      prompt: prompt({ input: undefined, metadata: { trigger: 'trg_1', triggerName: 'Daily report' } }),
    });
    expect(screen.getByText('Started by “Daily report”')).toBeTruthy();
    cleanup();
    promptView({ prompt: prompt({ input: undefined, metadata: { trigger: 'trg_1' } }) });
    expect(screen.getByText('Started by a trigger')).toBeTruthy();
    expect(screen.queryByText(/trg_1/)).toBeNull();
  });

  it('copies the answer', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    promptView();
    fireEvent.click(screen.getByRole('button', { name: 'Copy answer' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith('It is **42**.'), { timeout: 30_000 });
  });
});

describe('the composer', () => {
  const file = (name: string) => new File(['hello'], name, { type: 'text/plain' });
  const composer = (props: Partial<Parameters<typeof Composer>[0]> = {}) => {
    const onSend = vi.fn(async (_input: string, _files: File[]) => {});
    const onCancel = vi.fn(async () => {});
    render(<Composer onSend={onSend} onCancel={onCancel} {...props} />);
    return { onSend, onCancel };
  };

  it('takes dropped and pasted files, removes one, and sends files without text', async () => {
    const { onSend } = composer();
    const form = screen.getByRole('form', { name: 'Send a message' });
    const dataTransfer = { types: ['Files'], files: [file('a.txt'), file('b.txt')] };
    fireEvent.dragOver(form, { dataTransfer });
    fireEvent.drop(form, { dataTransfer });
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), {
      clipboardData: { files: [file('c.txt')], types: ['Files'] },
    });
    const chips = () =>
      screen.getAllByRole('listitem').map((li) => li.querySelector('.chip-name')?.textContent);
    expect(chips()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.txt' }));
    expect(chips()).toEqual(['a.txt', 'c.txt']);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledTimes(1), { timeout: 30_000 });
    const [input, sent] = onSend.mock.calls[0]!;
    expect(input).toBe('');
    expect(sent.map((f) => f.name)).toEqual(['a.txt', 'c.txt']);
    await vi.waitFor(() => expect(screen.queryByRole('listitem')).toBeNull(), { timeout: 30_000 });
  });

  it('keeps the text and files when sending fails, and says why', async () => {
    composer({
      onSend: vi.fn(async () => {
        throw new Error('Cannot reach the Tessera server.');
      }),
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert', {}, { timeout: 30_000 })).textContent).toBe(
      'Cannot reach the Tessera server.',
    );
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('hi');
  });

  it('keeps what is written while a message is on its way: it is the next message', async () => {
    let arrive = () => {};
    const onSend = vi.fn(() => new Promise<void>((resolve) => (arrive = resolve)));
    composer({ onSend });
    const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    fireEvent.change(box(), { target: { value: 'first' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(box().value).toBe('');
    fireEvent.change(box(), { target: { value: 'second' } });
    arrive();
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledWith('first', []), { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(box().value).toBe('second');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('suggests "help" in an empty message box only for the demo model, whose word it is', () => {
    composer({ demo: true });
    expect(screen.getByRole('textbox').getAttribute('placeholder')).toBe('Message Tessera… (try "help")');
    cleanup();
    composer();
    expect(screen.getByRole('textbox').getAttribute('placeholder')).toBe('Message Tessera…');
  });

  it('is a stop button while an answer runs', async () => {
    const { onCancel } = composer({ running: true, busyReason: 'The assistant is working.' });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await vi.waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1), { timeout: 30_000 });
  });
});

describe('a budget pause', () => {
  const pause = (extra: Record<string, unknown> = {}) =>
    ({
      id: 'p1',
      createdAt: at,
      type: 'pause',
      source: 'budget',
      budget: { name: 'maxRounds', limit: 25, used: 25 },
      reason:
        'This prompt reached its limit of 25 model calls (used: 25). Continue with a larger maxRounds, or stop?',
      ...extra,
    }) as Output;

  it('proposes double the budget, continues with it, and says what was chosen once decided', async () => {
    const onDecide = vi.fn(async () => {});
    render(<PauseCard output={pause()} onDecide={onDecide} />);
    const card = screen.getByRole('region', { name: 'The assistant reached its budget' });
    expect(card.textContent).toContain('from 25 model calls to 50 model calls');
    fireEvent.click(screen.getByRole('button', { name: 'Continue with a larger budget' }));
    await vi.waitFor(() => expect(onDecide).toHaveBeenCalledWith('p1', 'continue', { maxRounds: 50 }), {
      timeout: 30_000,
    });
    cleanup();
    render(
      <PauseCard output={pause({ decision: 'continue', raised: { maxRounds: 50 } })} onDecide={onDecide} />,
    );
    expect(screen.getByText(/you chose to/).textContent).toContain('continue with 50 model calls');
  });

  it('stops without a raise, and always proposes more than was used', async () => {
    const onDecide = vi.fn(async () => {});
    render(<PauseCard output={pause()} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await vi.waitFor(() => expect(onDecide).toHaveBeenCalledWith('p1', 'stop', undefined), {
      timeout: 30_000,
    });
    expect(proposedLimit({ name: 'maxTokens', limit: 100, used: 450 })).toBe(900);
    expect(proposedLimit({ name: 'maxCost', limit: 0.05, used: 0.06 })).toBe(0.12);
    expect(proposedLimit({ name: 'maxConsecutiveToolErrors', limit: 1, used: 1 })).toBe(2);
  });

  it("is titled by what paused: the doom-loop plugin's pause, core's own from before, another plugin's", () => {
    const titled = (extra: Record<string, unknown>) => {
      cleanup();
      render(<PauseCard output={pause({ budget: undefined, ...extra })} onDecide={async () => {}} />);
      return screen.getByRole('region').getAttribute('aria-label');
    };
    expect(titled({ source: 'plugin', plugin: 'doom-loop' })).toBe(
      'The assistant seems to be repeating itself',
    );
    expect(titled({ source: 'doom_loop' })).toBe('The assistant seems to be repeating itself');
    expect(titled({ source: 'plugin', plugin: 'review' })).toBe('Paused for your decision');
    expect(titled({ source: 'constructor' })).toBe('Paused for your decision');
  });

  it("words a budget's limit by its own names only: a record naming 'constructor' reads as an amount", () => {
    expect(budgetAmount('maxRounds', 50)).toBe('50 model calls');
    expect(budgetAmount('constructor', 3)).toBe('a cost of 3');
    expect(budgetAmount('toString', 3)).toBe('a cost of 3');
  });
});
