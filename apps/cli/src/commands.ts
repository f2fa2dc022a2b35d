import ora from 'ora';
import type { TesseraClient } from './client.ts';

type Output = { type: string; id: string; toolId?: string; input?: unknown; result?: { type: string } };
type Prompt = { id: string; state: string; stopReason?: { message: string }; output: Output[] };
type Approval = {
  toolCallId: string;
  toolId: string;
  input: unknown;
  reason: string;
  conversationId: string;
};

export type Io = { out: (text: string) => void; interactive: boolean };

/**
 * Sends a message (in a new conversation unless one is given) and streams the answer until the prompt
 * completes, fails, or pauses for approval.
 */
export async function send(
  client: TesseraClient,
  io: Io,
  message: string,
  conversationId?: string,
): Promise<number> {
  const id =
    conversationId ??
    (await client.request<{ id: string }>('POST', '/api/conversations', { title: message.slice(0, 60) })).id;
  const controller = new AbortController();
  const stream = client.events(id, controller.signal);
  await stream.next(); // `ready`: the stream is attached before the prompt starts
  const { prompt } = await client.request<{ prompt: Prompt }>('POST', `/api/conversations/${id}/prompts`, {
    input: message,
  });
  const spinner = ora({ text: 'Thinking…', isEnabled: io.interactive, discardStdin: false }).start();
  let exitCode = 0;
  try {
    for await (const { event, data } of stream) {
      if (data.promptId !== prompt.id) continue;
      if (event === 'prompt.text-delta') {
        if (spinner.isSpinning) spinner.stop();
        io.out(String(data.delta));
      } else if (event === 'prompt.output' && (data.output as Output).type === 'tool') {
        spinner.text = `Running ${(data.output as Output).toolId}…`;
      } else if (event === 'prompt.approval-requested') {
        spinner.stop();
        io.out(
          `\n⏸  ${data.toolId} needs your approval: ${data.reason}\n   tessera approve ${data.toolCallId}   |   tessera reject ${data.toolCallId}\n`,
        );
        break;
      } else if (event === 'prompt.completed' || event === 'prompt.failed') {
        spinner.stop();
        const ended = data.prompt as Prompt;
        if (ended.stopReason) io.out(`\n(${ended.state}: ${ended.stopReason.message})`);
        exitCode = event === 'prompt.failed' ? 1 : 0;
        break;
      }
    }
  } finally {
    spinner.stop();
    controller.abort();
  }
  io.out(`\n[conversation ${id}]\n`);
  return exitCode;
}

export async function pending(client: TesseraClient, io: Io): Promise<number> {
  const { items } = await client.request<{ items: Approval[] }>('GET', '/api/approvals');
  if (items.length === 0) io.out('Nothing is waiting for your approval.\n');
  for (const item of items) {
    io.out(`${item.toolCallId}  ${item.toolId}  ${JSON.stringify(item.input)}\n    ${item.reason}\n`);
  }
  return 0;
}

export async function decide(
  client: TesseraClient,
  io: Io,
  toolCallId: string,
  approve: boolean,
  reason?: string,
): Promise<number> {
  const path = `/api/tool-calls/${encodeURIComponent(toolCallId)}/${approve ? 'approve' : 'reject'}`;
  const { prompt } = await client.request<{ prompt: Prompt }>('POST', path, approve ? undefined : { reason });
  io.out(`${approve ? 'Approved' : 'Rejected'}; prompt ${prompt.id} resumed.\n`);
  return 0;
}
