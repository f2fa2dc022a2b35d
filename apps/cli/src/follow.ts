import ora from 'ora';
import type { ServerEvent, TesseraClient } from './client.ts';
import { type Io, Renderer } from './render.ts';

export type Prompt = {
  id: string;
  conversationId: string;
  state: string;
  input?: string;
  output: Output[];
  /** `trigger` and `triggerName` on a prompt a trigger started, `toolRun` on a tool the user ran. */
  metadata?: Record<string, unknown>;
};
export type Output = { type: string; id: string } & Record<string, unknown>;

export type Format = { json: boolean };

/** Exit codes: what a script can branch on. */
export const EXIT = { ok: 0, failed: 1, waiting: 3, interrupted: 130 } as const;

const LOOP_ENDS: Record<string, number> = {
  'prompt.completed': EXIT.ok,
  'prompt.failed': EXIT.failed,
  'prompt.cancelled': EXIT.failed,
  'prompt.approval-requested': EXIT.waiting,
  'prompt.pause-requested': EXIT.waiting,
};

/**
 * Opens the conversation's event stream, then `act`s (sends, approves, rejects) and follows the prompt it
 * names until its loop ends or pauses: rendered, or one JSON event per line. Opened first, so that nothing
 * the prompt does before `act` answers is missed.
 */
export async function actAndFollow(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  act: () => Promise<Prompt>,
): Promise<number> {
  const controller = new AbortController();
  const stream = client.events(conversationId, controller.signal);
  const renderer = new Renderer(io, client.url);
  const spinner = spinnerFor(io, format);
  let started = false;
  let stopping: 'cancel' | 'leave' | undefined;
  let releaseInterrupt: (() => void) | undefined;
  try {
    await stream.next(); // `ready`
    const prompt = await act();
    started = true;
    // Ctrl-C stops the answer (as the UI's stop button does) and shows it end; a second one leaves at once.
    releaseInterrupt = io.onInterrupt?.(() => {
      spinner.stop();
      if (stopping) {
        stopping = 'leave';
        controller.abort();
        return;
      }
      stopping = 'cancel';
      io.err('\nStopping the answer… (Ctrl-C again to leave it running)\n');
      client.request('POST', `/api/prompts/${prompt.id}/cancel`).catch((error: Error) => {
        io.err(`tessera: could not stop it: ${error.message}\n`);
      });
    });
    spinner.start('Thinking…');
    for await (const event of stream) {
      if (event.data.promptId !== prompt.id) continue;
      spinner.stop();
      if (format.json) io.out(`${JSON.stringify(event.data)}\n`);
      else renderer.event(event);
      const end = LOOP_ENDS[event.event];
      if (end !== undefined) return stopping && event.event === 'prompt.cancelled' ? EXIT.interrupted : end;
      // Only on a line of its own: a spinner redraws its line, which would erase text being streamed.
      if (!renderer.atLineStart) continue;
      if (isRunningTool(event)) spinner.start(`Running ${(event.data.output as Output).toolId}…`);
      else spinner.start('Thinking…');
    }
    if (stopping === 'leave') return EXIT.interrupted;
    throw new Error('The server closed the event stream before the prompt ended.');
  } finally {
    releaseInterrupt?.();
    spinner.stop();
    controller.abort();
    if (started && !format.json) {
      renderer.finish();
      io.err(`[conversation ${conversationId}]\n`);
    }
  }
}

/** A spinner on a terminal (on stderr); nothing at all otherwise (ora would print its text as lines). */
function spinnerFor(io: Io, format: Format): { start: (text: string) => void; stop: () => void } {
  if (!io.interactive || format.json) return { start: () => {}, stop: () => {} };
  const spinner = ora({ discardStdin: false });
  return { start: (text) => void spinner.start(text), stop: () => void spinner.stop() };
}

const isRunningTool = ({ event, data }: ServerEvent) =>
  event === 'prompt.output' && (data.output as Output).type === 'tool';
