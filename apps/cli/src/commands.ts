import { openAsBlob } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import mime from 'mime';
import { type ApproveEdit, applySets } from './approve-input.ts';
import { ApiError, type TesseraClient } from './client.ts';
import { actAndFollow, EXIT, type Format, type Prompt } from './follow.ts';
import { pauseLines, pendingPauses, waitingItems } from './loop-control.ts';
import { brief, type Io } from './render.ts';
import { type NestOptions, type PathStep, pathLine, renderPrompt } from './sub-runs.ts';

type Conversation = {
  id: string;
  title?: string;
  promptIds: string[];
  createdAt: string;
  updatedAt?: string;
};
type Approval = {
  toolCallId: string;
  promptId: string;
  conversationId: string;
  toolId: string;
  input: unknown;
  reason: string;
  /** A suspended call's child prompt: the call goes on by itself once the child's call is decided. */
  waitsOn?: { conversationId: string; promptId: string };
  /** From the user's prompt down to the call's (servers before it send none). */
  path?: PathStep[];
};

export type SendOptions = {
  conversationId?: string;
  /** Paths of files to attach. */
  files: string[];
  model?: 'normal' | 'high';
};

/**
 * Sends a message (with files, if any), in a new conversation unless one is given, and streams the answer.
 * Files are opened first: a missing one is an error before anything is created or sent.
 */
export async function send(
  client: TesseraClient,
  io: Io,
  format: Format,
  message: string,
  { conversationId, files, model }: SendOptions,
): Promise<number> {
  if (!message && files.length === 0) throw new Error('Say something, or attach a file with --file.');
  const attachments = await Promise.all(files.map(openAttachment));
  const title = (message || attachments.map((file) => file.name).join(', ')).slice(0, 60);
  const id =
    conversationId ?? (await client.request<Conversation>('POST', '/api/conversations', { title })).id;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const fields = {
    ...(message && { input: message }),
    ...(model && { model }),
    ...(timeZone && { timeZone }),
  };
  const path = `/api/conversations/${encodeURIComponent(id)}/prompts`;
  return actAndFollow(client, io, format, id, async () => {
    if (attachments.length === 0)
      return (await client.request<{ prompt: Prompt }>('POST', path, fields)).prompt;
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of attachments) form.append('files', file);
    return (await client.requestForm<{ prompt: Prompt }>(path, form)).prompt;
  });
}

/** A file to attach, read from disk as it is sent. */
async function openAttachment(path: string): Promise<File> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error(`Cannot attach ${path}: there is no such file.`);
    throw new Error(`Cannot attach ${path}: ${error.message}`);
  });
  if (!found.isFile()) throw new Error(`Cannot attach ${path}: it is not a file.`);
  // Typed by its extension, as a browser does (an untyped part would arrive as application/octet-stream).
  const type = mime.getType(path) ?? 'application/octet-stream';
  return new File([await openAsBlob(path, { type })], basename(path), { type });
}

/**
 * A decision on a pending call, as the CLI takes it: approve (`edit`: other arguments, `input` replacing the
 * model's, `set` changing fields of them, see ./approve-input.ts), reject, answer (the call's result in the
 * tool's place) or skip.
 */
export type CallDecision =
  | { kind: 'approve'; edit?: ApproveEdit }
  | { kind: 'reject'; reason?: string }
  | { kind: 'answer'; answer: unknown; reason?: string }
  | { kind: 'skip'; reason?: string };

const DECIDED = { approve: 'Approved', reject: 'Rejected', answer: 'Answered', skip: 'Skipped' } as const;

/** Decides a pending tool call and streams what the prompt does next. */
export async function decide(
  client: TesseraClient,
  io: Io,
  format: Format,
  toolCallId: string,
  decision: CallDecision,
): Promise<number> {
  const path = `/api/tool-calls/${encodeURIComponent(toolCallId)}/${decision.kind}`;
  const isIt = (item: Approval) => item.toolCallId === toolCallId;
  const waiting = (await waitingItems(client, '/api/approvals', isIt)).find(isIt);
  const edit = (decision.kind === 'approve' && decision.edit) || {};
  const sets = edit.set ?? [];
  if (sets.length > 0 && !waiting) {
    throw new Error(
      `Tool call ${toolCallId} is not waiting for your approval (see \`${io.command} pending\`).`,
    );
  }
  // The server checks edited arguments against the tool's schema: a mismatch is a 400, and the call waits.
  const input = sets.length > 0 ? applySets('input' in edit ? edit.input : waiting!.input, sets) : edit.input;
  const edited = sets.length > 0 || 'input' in edit;
  const reason = decision.kind === 'approve' ? undefined : decision.reason;
  const body =
    decision.kind === 'approve'
      ? edited
        ? { input }
        : undefined
      : {
          ...(decision.kind === 'answer' && { answer: decision.answer }),
          ...(reason !== undefined && { reason }),
        };
  const done = DECIDED[decision.kind];
  const post = async () =>
    (await client.request<{ prompt: Prompt }>('POST', path, body).catch(hintAtSet(edit))).prompt;
  if (!waiting) {
    // Not in the list (decided already, or unknown): the server's answer says which.
    const prompt = await post();
    io.err(`${done}; prompt ${prompt.id} resumed.\n`);
    return EXIT.ok;
  }
  // Said once the server took the decision: a refused one (arguments the tool does not take) is only an error.
  return actAndFollow(client, io, format, waiting.conversationId, async () => {
    const prompt = await post();
    if (!format.json) io.err(`${done} ${waiting.toolId}${edited ? ` with ${brief(input)}` : ''}.\n`);
    return prompt;
  });
}

/** A refused `--input` says how to change one argument instead: it replaced them all. */
const hintAtSet = (edit: ApproveEdit) => (error: unknown) => {
  if (
    error instanceof ApiError &&
    error.code === 'invalid_approval_input' &&
    'input' in edit &&
    !edit.set?.length
  ) {
    throw new ApiError(
      error.status,
      error.code,
      `${error.message}\n(--input replaces all the arguments: to change one, keep the others with --set key=value.)`,
    );
  }
  throw error;
};

export async function pending(client: TesseraClient, io: Io, format: Format): Promise<number> {
  const items = await waitingItems<Approval>(client, '/api/approvals');
  const pauses = await pendingPauses(client);
  if (format.json) {
    io.out(`${JSON.stringify([...items, ...pauses])}\n`);
    return EXIT.ok;
  }
  if (items.length === 0 && pauses.length === 0) io.out('Nothing is waiting for your approval.\n');
  for (const item of items) {
    io.out(`${item.toolCallId}  ${item.toolId}  ${brief(item.input)}\n    ${item.reason}\n`);
    // Where it is: a sub-agent's call under the user's prompt and each agent above it.
    if (item.path && item.path.length > 1) io.out(`    path: ${pathLine(item.path, item.toolId)}\n`);
    if (item.waitsOn) {
      const child = items.find((other) => other.promptId === item.waitsOn?.promptId);
      io.out(
        `    waits on its agent's prompt ${item.waitsOn.promptId}${child ? ` (its call ${child.toolCallId})` : ''}: decide that, and this goes on by itself\n`,
      );
    } else io.out(`    in conversation ${item.conversationId}: ${io.command} approve ${item.toolCallId}\n`);
  }
  for (const pause of pauses) io.out(pauseLines(pause, io.command));
  return EXIT.ok;
}

/** Your conversations, most recent first. */
export async function list(client: TesseraClient, io: Io, format: Format, limit: number): Promise<number> {
  const page = await client.request<{ items: Conversation[] }>('GET', `/api/conversations?limit=${limit}`);
  if (format.json) {
    io.out(`${JSON.stringify(page.items)}\n`);
    return EXIT.ok;
  }
  if (page.items.length === 0) io.out(`No conversations yet: ${io.command} send "hello"\n`);
  for (const conversation of page.items) {
    const when = new Date(conversation.updatedAt ?? conversation.createdAt).toLocaleString();
    io.out(`${conversation.id}  ${when}  ${conversation.title ?? '(untitled)'}\n`);
  }
  return EXIT.ok;
}

/**
 * A conversation as it was recorded: each prompt's input and every output, with the runs of the sub-agents
 * its calls started inside those calls, `nest.depth` levels down.
 */
export async function show(
  client: TesseraClient,
  io: Io,
  format: Format,
  id: string,
  nest: NestOptions = { depth: 0 },
): Promise<number> {
  const record = await client.request<{ conversation: Conversation; prompts: Prompt[] }>(
    'GET',
    `/api/conversations/${encodeURIComponent(id)}`,
  );
  if (format.json) {
    io.out(`${JSON.stringify(record)}\n`);
    return EXIT.ok;
  }
  io.out(`# ${record.conversation.title ?? '(untitled)'}  (${record.conversation.id})\n`);
  for (const prompt of record.prompts) {
    // Each prompt's id: what `fork` takes to branch there.
    io.out(`\n> ${headline(prompt)}  [${prompt.id}]\n`);
    await renderPrompt(client, io, prompt, nest);
    if (prompt.state !== 'completed') io.out(`(${prompt.state.replaceAll('_', ' ')})\n`);
  }
  return EXIT.ok;
}

/**
 * What started a prompt, as `show` heads it: the user's message, else what the web UI says in its place (a
 * trigger, a tool the user ran), else that the message had no text (files only).
 */
export function headline(prompt: Pick<Prompt, 'input' | 'metadata' | 'output'>): string {
  if (prompt.input) return prompt.input;
  const { trigger, triggerName, toolRun } = prompt.metadata ?? {};
  if (trigger)
    return typeof triggerName === 'string' ? `(started by “${triggerName}”)` : '(started by a trigger)';
  if (toolRun === true) {
    const call = prompt.output.find((o) => o.type === 'tool');
    return `(you ran ${typeof call?.toolId === 'string' ? call.toolId : 'a tool'})`;
  }
  return '(no text)';
}

/**
 * Forks a conversation at one of its prompts: a new conversation sharing the prompts before it, to send to
 * (with another model class, say) as a replay from that point. Prints the new conversation's id.
 */
export async function fork(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  promptId: string,
  title: string | undefined,
): Promise<number> {
  const forked = await client.request<Conversation>(
    'POST',
    `/api/conversations/${encodeURIComponent(conversationId)}/fork`,
    { promptId, ...(title !== undefined && { title }) },
  );
  if (format.json) {
    io.out(`${JSON.stringify(forked)}\n`);
    return EXIT.ok;
  }
  io.out(`${forked.id}\n`);
  const shared = forked.promptIds.length;
  io.err(
    `A fork of ${conversationId} sharing the ${shared} prompt${shared === 1 ? '' : 's'} before ${promptId}; go on with: ${io.command} send -c ${forked.id} "…"\n`,
  );
  return EXIT.ok;
}

/** Saves a conversation's file (its links need a token, which this program has). */
export async function download(
  client: TesseraClient,
  io: Io,
  conversationId: string,
  fileId: string,
  to: string | undefined,
  cwd: string,
): Promise<number> {
  const { bytes, name } = await client.download(
    `/api/conversations/${encodeURIComponent(conversationId)}/files/${encodeURIComponent(fileId)}`,
  );
  // The server's name is for display: only its last part is used, never a path it might contain.
  const path = to ?? resolve(cwd, basename(name ?? fileId));
  try {
    await writeFile(path, bytes, { flag: to ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new Error(`${path} exists already: name another file with --output.`);
  }
  io.err(`Saved ${path} (${bytes.byteLength} bytes).\n`);
  return EXIT.ok;
}
