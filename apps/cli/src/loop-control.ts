import { budgetOption, type ReachedBudget } from './budgets.ts';
import type { TesseraClient } from './client.ts';
import { actAndFollow, EXIT, type Format, type Prompt } from './follow.ts';
import type { Io } from './render.ts';
import { type PathStep, pathLine } from './sub-runs.ts';

export type MessageMode = 'steer' | 'queue';
type QueuedMessage = { id: string; mode: MessageMode; input: string; createdAt: string };
type Pause = {
  pauseId: string;
  promptId: string;
  conversationId: string;
  source: 'doom_loop' | 'plugin' | 'budget';
  plugin?: string;
  budget?: ReachedBudget;
  reason: string;
  /** From the user's prompt down to the paused one (servers before it send none). */
  path?: PathStep[];
};

const messagesPath = (conversationId: string) =>
  `/api/conversations/${encodeURIComponent(conversationId)}/messages`;

/**
 * Sends a message to a conversation that may be busy: `steer` reaches the running answer at its next step,
 * `queue` runs as the next prompt once it ends. On an idle conversation the message runs at once, and its
 * answer streams as `send`'s does.
 */
export async function sendWhileBusy(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  input: string,
  mode: MessageMode,
): Promise<number> {
  if (!input) throw new Error(`Say something to ${mode === 'steer' ? 'steer with' : 'queue'}.`);
  let waiting: QueuedMessage | undefined;
  const post = () =>
    client.request<{ message: QueuedMessage; prompt?: Prompt }>('POST', messagesPath(conversationId), {
      input,
      mode,
    });
  // The conversation's stream is opened before the send, so an answer that starts at once is followed whole.
  const code = await actAndFollow(client, io, format, conversationId, async () => {
    const sent = await post();
    if (sent.prompt) return sent.prompt;
    waiting = sent.message;
    throw new Waiting();
  }).catch((error: unknown) => {
    if (error instanceof Waiting) return undefined;
    throw error;
  });
  if (code !== undefined) return code;
  if (format.json) io.out(`${JSON.stringify(waiting)}\n`);
  else
    io.err(
      mode === 'steer'
        ? `Steering ${waiting!.id}: the assistant reads it at its next step.\n`
        : `Queued ${waiting!.id}: it runs when the current answer ends.\n`,
    );
  return EXIT.ok;
}

/** Thrown out of `actAndFollow` when the message waits: there is no prompt of it to follow yet. */
class Waiting extends Error {}

/** The conversation's waiting messages, oldest first. */
export async function listMessages(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
): Promise<number> {
  const { items } = await client.request<{ items: QueuedMessage[] }>('GET', messagesPath(conversationId));
  if (format.json) {
    io.out(`${JSON.stringify(items)}\n`);
    return EXIT.ok;
  }
  if (items.length === 0) io.out('No messages are waiting.\n');
  for (const message of items) {
    io.out(`${message.id}  ${message.mode === 'steer' ? 'steer' : 'queue'}  ${message.input}\n`);
  }
  return EXIT.ok;
}

/** Takes a waiting message off the list: it is never delivered. */
export async function removeMessage(
  client: TesseraClient,
  io: Io,
  conversationId: string,
  messageId: string,
): Promise<number> {
  await client.request('DELETE', `${messagesPath(conversationId)}/${encodeURIComponent(messageId)}`);
  io.err(`Removed ${messageId}.\n`);
  return EXIT.ok;
}

/**
 * The items of a paged list of what waits for the user (GET /api/approvals, /api/pauses), page after page
 * until `nextCursor` is absent; with `until`, it stops after the page that holds an item it matches.
 */
export async function waitingItems<T>(
  client: TesseraClient,
  path: string,
  until?: (item: T) => boolean,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const after = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await client.request<{ items: T[]; nextCursor?: string }>(
      'GET',
      `${path}?limit=200${after}`,
    );
    items.push(...page.items);
    if (until && page.items.some(until)) break;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

/** The prompts paused for the user's decision, across conversations (every page, or up to `until`'s). */
export async function pendingPauses(
  client: TesseraClient,
  until?: (pause: Pause) => boolean,
): Promise<Pause[]> {
  return waitingItems(client, '/api/pauses', until);
}

/** The lines `pending` prints for a pause, with the commands that decide it. */
export function pauseLines(pause: Pause, command: string): string {
  const by =
    // The doom-loop plugin's pause, or core's own from before the check was a plugin.
    pause.source === 'doom_loop' || (pause.source === 'plugin' && pause.plugin === 'doom-loop')
      ? 'repeating itself'
      : pause.budget
        ? `reached its ${pause.budget.name} budget`
        : `paused by ${pause.plugin ?? 'a plugin'}`;
  const decide = pause.budget ? `continue ${budgetOption(pause.budget)}|stop` : 'continue|stop';
  return [
    `${pause.pauseId}  ${by}\n    ${pause.reason}\n`,
    // A sub-agent's pause: where it is, under the user's prompt.
    pause.path && pause.path.length > 1 ? `    path: ${pathLine(pause.path, '(paused)')}\n` : '',
    `    in conversation ${pause.conversationId}: ${command} resume ${pause.pauseId} ${decide}\n`,
  ].join('');
}

/** Continues or stops a paused prompt (past a budget, with `budgets` raised), and streams what it does next. */
export async function resume(
  client: TesseraClient,
  io: Io,
  format: Format,
  pauseId: string,
  choice: 'continue' | 'stop',
  budgets?: Record<string, number>,
): Promise<number> {
  const post = async () =>
    (
      await client.request<{ prompt: Prompt }>('POST', `/api/pauses/${encodeURIComponent(pauseId)}/resume`, {
        choice,
        ...(budgets && { budgets }),
      })
    ).prompt;
  const isIt = (pause: Pause) => pause.pauseId === pauseId;
  const waiting = (await pendingPauses(client, isIt)).find(isIt);
  if (!waiting) {
    // Not in the list (decided already, or unknown): the server's answer says which.
    const prompt = await post();
    io.err(`${choice === 'continue' ? 'Continued' : 'Stopped'} prompt ${prompt.id}.\n`);
    return EXIT.ok;
  }
  // Said once the server took the decision: a refused one (a budget too small) is only an error.
  return actAndFollow(client, io, format, waiting.conversationId, async () => {
    const prompt = await post();
    if (!format.json) io.err(choice === 'continue' ? 'Continuing.\n' : 'Stopping.\n');
    return prompt;
  });
}

/**
 * Stops what runs in a conversation: the prompt writing an answer or waiting for a decision is cancelled (as
 * the UI's stop button does). A message queued with `--queue` then runs, as after any end of a prompt.
 */
export async function stop(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
): Promise<number> {
  const { prompts } = await client.request<{ prompts: Prompt[] }>(
    'GET',
    `/api/conversations/${encodeURIComponent(conversationId)}`,
  );
  const active = prompts.filter((p) => p.state === 'running' || p.state === 'waiting_for_approval');
  if (active.length === 0)
    throw new Error(`Nothing runs in conversation ${conversationId}: nothing to stop.`);
  const stopped: Prompt[] = [];
  for (const prompt of active) {
    stopped.push(
      await client.request<Prompt>('POST', `/api/prompts/${encodeURIComponent(prompt.id)}/cancel`),
    );
  }
  if (format.json) io.out(`${JSON.stringify(stopped)}\n`);
  else for (const prompt of stopped) io.err(`Stopped prompt ${prompt.id} (${prompt.state}).\n`);
  return EXIT.ok;
}
