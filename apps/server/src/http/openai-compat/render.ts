import type { PauseOutput, Prompt, PromptOutput, ToolOutput } from '@tessera/core';

/**
 * What a client of the OpenAI protocols reads of a prompt, which it can only show as text: widgets as their
 * fallback text, files as links, and what waits for the user's decision as a question it can answer by
 * replying. The tool calls themselves ran on the server and are not shown.
 */

/** Where the client's links point: the server as the client reached it. */
export type Links = { origin: string; conversationId: string };

/** The words that decide what waits, as the whole message (any case, a final `.` or `!` ignored). */
const APPROVE = new Set(['approve', 'approved', 'yes', 'y', 'ok', 'okay', 'allow', 'confirm', 'go ahead']);
const REJECT = new Set(['reject', 'rejected', 'no', 'n', 'deny', 'decline', 'refuse']);

/** `approve` or `reject` when the message is one of the decision words, else undefined (a message like any). */
export function decisionOf(input: string): 'approve' | 'reject' | undefined {
  if (input.length > 20) return undefined;
  const word = input
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  if (APPROVE.has(word)) return 'approve';
  if (REJECT.has(word)) return 'reject';
  return undefined;
}

/** What a prompt waiting for the user waits on: its pending tool call, or its undecided pause. */
export type Waiting = ToolOutput | PauseOutput;

export function waitingOn(prompt: Prompt): Waiting | undefined {
  if (prompt.state !== 'waiting_for_approval') return undefined;
  return prompt.output.find(
    (output): output is Waiting =>
      (output.type === 'tool' && output.result?.type === 'pending') ||
      (output.type === 'pause' && output.decision === undefined),
  );
}

const ARGUMENTS_SHOWN = 300;

/** A call's arguments as one short line of JSON. */
function argumentsOf(call: ToolOutput): string {
  const json = JSON.stringify(call.editedInput ?? call.input) ?? 'no arguments';
  return json.length > ARGUMENTS_SHOWN ? `${json.slice(0, ARGUMENTS_SHOWN)}…` : json;
}

/** The limit a budget pause continues with when the user approves: double the one reached. */
export const doubledBudget = (pause: PauseOutput) =>
  pause.budget ? { [pause.budget.name]: pause.budget.limit * 2 } : undefined;

/** The question that ends a response while the prompt waits: what waits, why, and how to decide. */
export function waitingText(waiting: Waiting, links: Links, below: readonly Prompt[] = []): string {
  // What waits below the conversation's prompt (a sub-agent's call) is decided here too, or in its own conversation.
  const where = below.at(-1)?.conversationId ?? links.conversationId;
  const ui = `${links.origin}/#${encodeURIComponent(where)}`;
  const by =
    below.length > 0
      ? ` (asked ${below.length === 1 ? 'one level' : `${below.length} levels`} down, by a prompt this one started)`
      : '';
  if (waiting.type === 'tool') {
    const reason = waiting.result?.type === 'pending' ? waiting.result.reason : '';
    return [
      `**Approval needed${by}:** the tool \`${waiting.toolId}\` wants to run with \`${argumentsOf(waiting)}\`.`,
      ...(reason ? [`Reason: ${reason}`] : []),
      `Reply **approve** to run it or **reject** to refuse it, or decide in Tessera: ${ui}`,
    ].join('\n');
  }
  const raise = doubledBudget(waiting);
  const going = raise
    ? `**approve** to continue with ${Object.entries(raise)
        .map(([name, limit]) => `${name} ${limit}`)
        .join(', ')}`
    : '**approve** to continue';
  return [
    `**Paused${by}:** ${waiting.reason}`,
    `Reply ${going} or **reject** to stop, or decide in Tessera: ${ui}`,
  ].join('\n');
}

/** The text of an output a tool emitted (a widget's fallback, a file's link), or undefined for the others. */
export function emittedText(output: PromptOutput, links: Links): string | undefined {
  if (output.type === 'widget') return output.fallback || undefined;
  if (output.type === 'file') {
    const path = `/api/conversations/${encodeURIComponent(links.conversationId)}/files/${encodeURIComponent(output.fileId)}`;
    return `[${output.name.replace(/[[\]]/g, '')}](${links.origin}${path})`;
  }
  return undefined;
}
