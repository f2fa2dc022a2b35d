import { styleText } from 'node:util';
import { budgetOption, type ReachedBudget } from './budgets.ts';
import type { ServerEvent } from './client.ts';
import { widgetText } from './widgets.ts';

/** Where a command writes, and how: `interactive` shows a spinner, `color` styles text. */
export type Io = {
  out: (text: string) => void;
  err: (text: string) => void;
  interactive: boolean;
  color: boolean;
  /** How the user calls this program, for the commands we suggest (`pnpm tessera` or `tessera`). */
  command: string;
  /** Calls `handler` on each interrupt (Ctrl-C) until the returned function is called. */
  onInterrupt?: (handler: () => void) => () => void;
};

type Output = { type: string; id: string } & Record<string, unknown>;
type ToolResult =
  | { type: 'success'; output: unknown }
  | { type: 'error'; error: unknown }
  | { type: 'pending' };

const ONE_LINE = 160;
/** JSON on one line, cut short: a glance at the arguments or the result, not the whole record. */
export function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > ONE_LINE ? `${text.slice(0, ONE_LINE - 1)}…` : text;
}

const formatBytes = (size: number) =>
  size < 1024
    ? `${size} B`
    : size < 1024 ** 2
      ? `${(size / 1024).toFixed(1)} kB`
      : `${(size / 1024 ** 2).toFixed(1)} MB`;

const errorMessage = (error: unknown) =>
  typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : brief(error);

/**
 * Renders a prompt's events (or its recorded outputs) as terminal text: streamed text as it comes, tool calls
 * with their results, approvals with the commands that decide them, widgets as tables and files as links.
 */
export class Renderer {
  readonly #io: Io;
  readonly #url: string;
  #atLineStart = true;
  /** Text outputs already shown through their deltas: the recorded output is not printed again. */
  readonly #streamed = new Set<string>();
  /** Approvals already shown (a pending result and its `approval-requested` event are one request). */
  readonly #asked = new Set<string>();

  constructor(io: Io, url: string) {
    this.#io = io;
    this.#url = url;
  }

  #style(format: Parameters<typeof styleText>[0], text: string): string {
    return this.#io.color ? styleText(format, text, { validateStream: false }) : text;
  }

  #write(text: string): void {
    if (!text) return;
    this.#io.out(text);
    this.#atLineStart = text.endsWith('\n');
  }

  /** A block of its own lines, never glued to the end of streamed text. */
  #block(text: string): void {
    this.#write(`${this.#atLineStart ? '' : '\n'}${text}\n`);
  }

  get atLineStart(): boolean {
    return this.#atLineStart;
  }

  /** A line of its own, styled: what a caller adds to the record it renders. */
  note(text: string, format: Parameters<typeof styleText>[0]): void {
    this.#block(this.#style(format, text));
  }

  /** Ends the rendering on a new line. */
  finish(): void {
    if (!this.#atLineStart) this.#write('\n');
  }

  event({ event, data }: ServerEvent): void {
    const conversationId = String(data.conversationId);
    switch (event) {
      case 'prompt.text-delta':
        this.#streamed.add(String(data.outputId));
        this.#write(String(data.delta));
        return;
      case 'prompt.output':
        this.output(data.output as Output, conversationId);
        return;
      case 'prompt.output-updated':
        this.#updated(data.output as Output, conversationId);
        return;
      case 'prompt.approval-requested':
        this.#approval(String(data.toolCallId), String(data.toolId), data.input, String(data.reason));
        return;
      case 'prompt.pause-requested':
        this.#pause(String(data.outputId), String(data.reason), data.budget as ReachedBudget | undefined);
        return;
      case 'prompt.started':
        // What the prompt starts with: the files the user attached.
        for (const output of (data.prompt as { output: Output[] }).output)
          this.output(output, conversationId);
        return;
      case 'prompt.resumed':
        return;
      case 'prompt.failed':
      case 'prompt.cancelled': {
        const prompt = data.prompt as { state: string; stopReason?: { message?: string } };
        this.#block(
          this.#style('red', `✗ ${prompt.state}: ${prompt.stopReason?.message ?? 'no reason given'}`),
        );
        return;
      }
      case 'prompt.guardrail-tripped':
        return; // its `guardrail` output, recorded just before, says it
      case 'prompt.hook-failed':
        this.#block(this.#style('yellow', `! ${data.plugin}'s ${data.hook} failed: ${data.message}`));
        return;
    }
  }

  /** One recorded output: from the event stream, or from the record (`show`). */
  output(output: Output, conversationId: string): void {
    switch (output.type) {
      case 'text':
        if (!this.#streamed.has(output.id)) this.#write(String(output.text));
        return;
      case 'reasoning': {
        const text = output.summary ?? output.text;
        if (text) this.#block(this.#style('dim', `(thinking) ${text}`));
        return;
      }
      case 'tool': {
        this.#block(this.#style('cyan', `▸ ${output.toolId} ${brief(output.input)}`));
        if (output.result) this.#updated(output, conversationId);
        return;
      }
      case 'widget':
        this.#block(widgetText(output as unknown as { widget: string; data: unknown; fallback: string }));
        return;
      case 'file':
        this.#file(output, conversationId);
        return;
      case 'pause':
        if (output.decision)
          this.#block(this.#style('yellow', `⏸  Paused: ${output.reason} (${output.decision})`));
        else this.#pause(output.id, String(output.reason), output.budget as ReachedBudget | undefined);
        return;
      case 'steering':
        this.#block(this.#style('dim', `(you, while it ran) ${output.text}`));
        return;
      case 'guardrail':
        this.#block(
          this.#style(
            'red',
            `✗ ${output.plugin}'s ${output.guardrail} guardrail blocked it: ${output.reason}`,
          ),
        );
        return;
      default:
        // A plugin's own output: its type, so nothing is silently missing.
        this.#block(this.#style('dim', `[${output.type}]`));
    }
  }

  #updated(output: Output, conversationId: string): void {
    // A progress widget is shown again once it ends; other widgets are shown once.
    if (output.type === 'widget' && output.widget === 'progress') {
      if ((output.data as { status?: string })?.status !== 'running') this.output(output, conversationId);
      return;
    }
    if (output.type !== 'tool' || !output.result) return;
    const result = output.result as ToolResult;
    const approval = output.approval as { decision?: string; comment?: string } | undefined;
    if (result.type === 'success') {
      const by = approval?.decision === 'answered' ? 'answered by you: ' : '';
      this.#block(this.#style('green', `  ✓ ${by}${brief(result.output)}`));
    } else if (result.type === 'error') {
      const error = result.error as { code?: string } | undefined;
      if (approval?.decision === 'skipped') {
        const comment = approval.comment ? `: ${approval.comment}` : ' by you';
        this.#block(this.#style('yellow', `  ↷ skipped${comment}`));
      } else if (error?.code === 'rejected' || approval?.decision === 'rejected') {
        // What the user said, not the explanation written for the model.
        const comment = approval?.comment ? `: ${approval.comment}` : ' by you';
        this.#block(this.#style('yellow', `  ✗ rejected${comment}`));
      } else this.#block(this.#style('red', `  ✗ error: ${errorMessage(result.error)}`));
    } else if (result.type === 'pending' && !approval?.decision && typeof output.startedAt === 'string') {
      this.#suspended(
        output.id,
        String(output.toolId),
        String((output.result as { reason?: string }).reason ?? ''),
      );
    } else if (result.type === 'pending' && !approval?.decision) {
      this.#approval(
        output.id,
        String(output.toolId),
        undefined,
        String((output.result as { reason?: string }).reason ?? ''),
      );
    }
  }

  #pause(pauseId: string, reason: string, budget?: ReachedBudget): void {
    if (this.#asked.has(pauseId)) return;
    this.#asked.add(pauseId);
    const command = this.#io.command;
    // Past a budget, continuing needs a larger one: the command proposes double.
    const raise = budget && typeof budget.name === 'string' ? ` ${budgetOption(budget)}` : '';
    this.#block(
      [
        this.#style('yellow', `⏸  Paused: ${reason}`),
        `   continue: ${command} resume ${pauseId} continue${raise}`,
        `   stop:     ${command} resume ${pauseId} stop`,
      ].join('\n'),
    );
  }

  /**
   * A call that started, then asked to wait (an agent waiting on its sub-agent, whose own call is the one to
   * decide, in its conversation): no approve command, the way to what waits instead.
   */
  #suspended(toolCallId: string, toolId: string, reason: string): void {
    if (this.#asked.has(toolCallId)) return;
    this.#asked.add(toolCallId);
    this.#block(
      [
        this.#style('yellow', `⏸  ${toolId} is waiting: ${reason}`),
        `   what to decide: ${this.#io.command} pending  (it goes on by itself once that is decided)`,
      ].join('\n'),
    );
  }

  #approval(toolCallId: string, toolId: string, input: unknown, reason: string): void {
    if (this.#asked.has(toolCallId)) return;
    this.#asked.add(toolCallId);
    const command = this.#io.command;
    this.#block(
      [
        this.#style('yellow', `⏸  ${toolId} needs your approval: ${reason}`),
        ...(input === undefined ? [] : [`   input: ${brief(input)}`]),
        `   approve: ${command} approve ${toolCallId}`,
        `   reject:  ${command} reject ${toolCallId} --reason "…"`,
        `   answer:  ${command} answer ${toolCallId} '<result>'  (its result, the tool not run)`,
        `   skip:    ${command} skip ${toolCallId}`,
      ].join('\n'),
    );
  }

  #file(output: Output, conversationId: string): void {
    const fileId = String(output.fileId);
    const link = `${this.#url}/api/conversations/${conversationId}/files/${fileId}`;
    this.#block(
      [
        `📎 ${output.origin === 'upload' ? 'you attached ' : ''}${output.name} (${output.mediaType}, ${formatBytes(Number(output.size))})`,
        `   ${this.#style('underline', link)}`,
        `   ${this.#io.command} download ${conversationId} ${fileId}`,
      ].join('\n'),
    );
  }
}
