import { createHash } from 'node:crypto';
import type { testServer } from '../../harness.ts';

type Request = Awaited<ReturnType<typeof testServer>>['request'];
type Output = { type: string; id: string; fileId?: string };
type Prompt = { id: string; state: string; output: Output[] };
type Conversation = { id: string; title?: string };

/** A text only this user's data holds: found in an answer to anyone else, it leaked. */
export const secretOf = (name: string) =>
  `${name}-only-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;

/** The demo model's requests (see demo-plugin.ts) that leave one of each thing a user can have. */
const ASK = {
  file: 'make a sales report',
  trigger: 'remind me every 30 minutes to drink water',
  blueprint: 'save blueprint Water the plants: fill the can, then water each pot',
  rejected: 'transfer $500 to Ada',
  pending: 'delete records alpha and beta',
};

/** One user's calls, failing on any answer but the expected. */
function client(request: Request, token: string) {
  const call = async (
    method: string,
    path: string,
    expected: number,
    options: { body?: unknown; form?: FormData } = {},
  ) => {
    const response = await request(method, path, { token, ...options });
    if (response.status !== expected)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  /** The prompt once it is no longer running. */
  const settled = async (id: string): Promise<Prompt> => {
    for (;;) {
      const prompt = (await call('GET', `/api/prompts/${id}`, 200)) as Prompt;
      if (prompt.state !== 'running') return prompt;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const ask = async (conversationId: string, input: string | FormData) => {
    const sent = await call(
      'POST',
      `/api/conversations/${conversationId}/prompts`,
      202,
      typeof input === 'string' ? { body: { input } } : { form: input },
    );
    return settled(sent.prompt.id);
  };
  /** Decides the prompt's pending tool call and waits for the prompt to end. */
  const decide = async (prompt: Prompt, decision: 'approve' | 'reject', body: unknown = {}) => {
    await call('POST', `/api/tool-calls/${prompt.output[0]!.id}/${decision}`, 202, { body });
    return settled(prompt.id);
  };
  return { call, ask, decide };
}

/**
 * Gives a user one of everything: instructions, conversations with prompts (a generated file, an upload, an
 * active skill), a trigger, a blueprint of their own, a rejected tool call, pending approvals (`waiting`) each
 * with a message queued behind it, and an empty conversation.
 */
export async function createFixtures(
  request: Request,
  token: string,
  name: string,
  { waiting: count = 1 } = {},
): Promise<void> {
  const { call, ask, decide } = client(request, token);
  const secret = secretOf(name);
  await call('PUT', '/api/me/instructions', 200, { body: { instructions: `${secret} likes short answers` } });
  const notes = (await call('POST', '/api/conversations', 201, {
    body: { title: `${secret} notes` },
  })) as Conversation;
  await ask(notes.id, ASK.file);
  const form = new FormData();
  form.set('input', `${secret} notes`);
  form.append('files', new File([`# ${secret}\nShip on Friday\n`], 'notes.md', { type: 'text/markdown' }));
  await ask(notes.id, form);
  await call('POST', `/api/conversations/${notes.id}/skills/meeting-notes/activate`, 200);
  const chores = (await call('POST', '/api/conversations', 201, { body: {} })) as Conversation;
  await decide(await ask(chores.id, ASK.trigger), 'approve');
  await decide(await ask(chores.id, ASK.blueprint), 'approve');
  await decide(await ask(chores.id, ASK.rejected), 'reject', { reason: `${secret} says no` });
  for (let i = 0; i < count; i++) {
    const waiting = (await call('POST', '/api/conversations', 201, {
      body: { title: 'waiting' },
    })) as Conversation;
    const pending = await ask(waiting.id, ASK.pending);
    if (pending.state !== 'waiting_for_approval')
      throw new Error(`'${ASK.pending}' did not wait for approval`);
    await call('POST', `/api/conversations/${waiting.id}/messages`, 202, {
      body: { input: `${secret}: then water the plants`, mode: 'queue' },
    });
  }
  await call('POST', '/api/conversations', 201, { body: {} });
}

/** Everything a user can read of their own, through the API (file downloads as digests). */
export async function snapshot(request: Request, token: string) {
  const { call } = client(request, token);
  const list = (await call('GET', '/api/conversations?limit=200', 200)) as { items: Conversation[] };
  const conversations = [];
  const files: Record<string, string> = {};
  const toolCalls: Record<string, unknown> = {};
  for (const { id } of list.items) {
    const read = (await call('GET', `/api/conversations/${id}`, 200)) as {
      conversation: Conversation;
      prompts: Prompt[];
    };
    for (const output of read.prompts.flatMap((prompt) => prompt.output)) {
      if (output.type === 'tool')
        toolCalls[output.id] = await call('GET', `/api/tool-calls/${output.id}`, 200);
      if (output.type !== 'file' || !output.fileId) continue;
      const response = await request('GET', `/api/conversations/${id}/files/${output.fileId}`, { token });
      files[output.fileId] =
        `${response.status} ${createHash('sha256').update(String(response.body)).digest('hex')}`;
    }
    conversations.push({
      ...read,
      messages: await call('GET', `/api/conversations/${id}/messages`, 200),
      skills: await call('GET', `/api/skills?conversationId=${id}`, 200),
      reports: await Promise.all(
        read.prompts.map((prompt) => call('GET', `/api/prompts/${prompt.id}/report`, 200)),
      ),
    });
  }
  return {
    me: await call('GET', '/api/me', 200),
    instructions: await call('GET', '/api/me/instructions', 200),
    list,
    conversations,
    files,
    toolCalls,
    triggers: await call('GET', '/api/triggers', 200),
    blueprints: await call('GET', '/api/blueprints', 200),
    approvals: await call('GET', '/api/approvals', 200),
    pauses: await call('GET', '/api/pauses', 200),
  };
}

export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** A snapshot's ids by the path segment of their collection, as the fuzz fills path parameters. */
export function idsOf(snap: Snapshot): Record<string, string[]> {
  const prompts = snap.conversations.flatMap((c) => c.prompts);
  const outputs = prompts.flatMap((prompt) => prompt.output);
  const items = <T>(value: unknown) => (value as { items: T[] }).items;
  return {
    conversations: snap.list.items.map((c) => c.id),
    prompts: prompts.map((p) => p.id),
    'tool-calls': outputs.filter((o) => o.type === 'tool').map((o) => o.id),
    files: outputs.flatMap((o) => (o.fileId ? [o.fileId] : [])),
    triggers: items<{ trigger: { id: string } }>(snap.triggers).map((t) => t.trigger.id),
    blueprints: items<{ id: string }>(snap.blueprints).map((b) => b.id),
    messages: snap.conversations.flatMap((c) => items<{ id: string }>(c.messages).map((m) => m.id)),
    skills: snap.conversations.flatMap((c) => items<{ name: string }>(c.skills).map((s) => s.name)),
    pauses: items<{ pauseId: string }>(snap.pauses).map((p) => p.pauseId),
  };
}

/**
 * Ids that belong together, for paths with more than one: a conversation with each of its files, waiting
 * messages and skills.
 */
export function bindingsOf(snap: Snapshot): Record<string, string>[] {
  const items = <T>(value: unknown) => (value as { items: T[] }).items;
  return snap.conversations.flatMap((c) => {
    const conversations = c.conversation.id;
    return [
      ...c.prompts.flatMap((p) =>
        p.output.flatMap((o) => (o.fileId ? [{ conversations, files: o.fileId }] : [])),
      ),
      ...items<{ id: string }>(c.messages).map((m) => ({ conversations, messages: m.id })),
      ...items<{ name: string }>(c.skills).map((s) => ({ conversations, skills: s.name })),
    ];
  });
}
