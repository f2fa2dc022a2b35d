import { ApiError, type TesseraClient } from './client.ts';
import type { Output, Prompt } from './follow.ts';
import type { Io } from './render.ts';
import { brief, Renderer } from './render.ts';

/** The most levels of sub-agents `show` nests inside their calls (as the server's approval paths). */
export const MAX_NESTED_DEPTH = 8;

/** One step of an approval's path (GET /api/approvals), from the user's prompt down to the call's. */
export type PathStep = {
  conversationId: string;
  promptId: string;
  toolCallId?: string;
  toolId?: string;
  agent?: string;
  title?: string;
};

/**
 * An approval's path as one line: "Trip planning › researcher › booker › work.do" (`last`: the waiting call's
 * tool, or what else waits there).
 */
export function pathLine(path: readonly PathStep[], last: string): string {
  const names = path.map((step, i) =>
    i === 0 ? (step.title ?? step.conversationId) : (step.agent ?? step.title ?? step.conversationId),
  );
  return [...names, last].join(' › ');
}

/**
 * The call a prompt runs for, from its `metadata.parent` (as core's `parentOf` reads it: a sub-agent's
 * prompt names its parent's prompt and call), or undefined.
 */
function parentOf(prompt: Prompt): { promptId: string; toolCallId?: string } | undefined {
  const parent = prompt.metadata?.parent as { promptId?: unknown; toolCallId?: unknown } | undefined;
  if (typeof parent !== 'object' || parent === null || typeof parent.promptId !== 'string') return undefined;
  return {
    promptId: parent.promptId,
    ...(typeof parent.toolCallId === 'string' && { toolCallId: parent.toolCallId }),
  };
}

/**
 * An output that links a call of the prompt to the prompt it started (a sub-agent's run): emitted for the
 * call (its `toolCallId`), naming a prompt. Only a prompt whose own parent link names this call is nested.
 */
const linkedPromptId = (output: Output): string | undefined =>
  output.type !== 'tool' && typeof output.toolCallId === 'string' && typeof output.promptId === 'string'
    ? output.promptId
    : undefined;

/** `io` with every line it writes begun with `prefix`. */
export function indented(io: Io, prefix: string): Io {
  let atLineStart = true;
  const write = (text: string) => {
    let out = '';
    for (const line of text.split(/(?<=\n)/)) {
      if (line === '') continue;
      if (atLineStart) out += prefix;
      out += line;
      atLineStart = line.endsWith('\n');
    }
    if (out) io.out(out);
  };
  return { ...io, command: io.command, out: write };
}

export type NestOptions = {
  /** How many levels of sub-agents to show inside their calls (0: none, each shown as one line). */
  depth: number;
};

/**
 * A prompt's outputs, as `show` prints them, with each sub-agent's run shown inside the call that started
 * it, indented, and theirs inside it in turn, `depth` levels down (the child prompts are read through the
 * API, as the user: a child that is not theirs, or does not link back to the call, is not shown).
 */
export async function renderPrompt(
  client: TesseraClient,
  io: Io,
  prompt: Prompt,
  options: NestOptions,
  level = 0,
  seen: Set<string> = new Set([prompt.id]),
): Promise<void> {
  const renderer = new Renderer(io, client.url);
  const calls = new Set(prompt.output.filter((o) => o.type === 'tool').map((o) => o.id));
  // Each call's link output, shown with the call rather than where it was recorded.
  const links = new Map<string, Output>();
  for (const output of prompt.output) {
    if (linkedPromptId(output) && calls.has(String(output.toolCallId)))
      links.set(String(output.toolCallId), output);
  }
  for (const output of prompt.output) {
    const link = output.type === 'tool' ? links.get(output.id) : undefined;
    if (!link) {
      if (!(linkedPromptId(output) && links.get(String(output.toolCallId)) === output)) {
        renderer.output(output, prompt.conversationId);
      }
      continue;
    }
    // The call, then the run it started, then its result.
    renderer.output({ ...output, result: undefined }, prompt.conversationId);
    renderer.finish();
    const child = level < options.depth ? await childOf(client, prompt, output.id, link, seen) : undefined;
    const name = typeof link.agent === 'string' ? link.agent : 'sub-prompt';
    if (child) {
      seen.add(child.id);
      io.out(`  ↳ ${name}: ${brief(child.input ?? '')}  [${child.id} in ${child.conversationId}]\n`);
      await renderPrompt(client, indented(io, '  │ '), child, options, level + 1, seen);
      if (child.state !== 'completed') io.out(`  │ (${child.state.replaceAll('_', ' ')})\n`);
    } else {
      const state = typeof link.state === 'string' ? ` (${link.state.replaceAll('_', ' ')})` : '';
      const where =
        typeof link.conversationId === 'string' ? `: ${io.command} show ${link.conversationId}` : '';
      io.out(`  ↳ ${name}${state}${where}\n`);
    }
    const result = output.result as { type?: string } | undefined;
    if (result?.type === 'pending' && typeof output.startedAt === 'string') {
      // Suspended on its child: the child's own call is the one to decide; this one goes on by itself.
      renderer.note(`  ⏸ waits on ${name}: decide the call in its run`, 'yellow');
    } else if (result) {
      renderer.event({
        event: 'prompt.output-updated',
        data: { output, conversationId: prompt.conversationId },
      });
    }
  }
  renderer.finish();
}

/** The prompt `link` names, read as the user, when it is theirs and its parent link names this call. */
async function childOf(
  client: TesseraClient,
  prompt: Prompt,
  toolCallId: string,
  link: Output,
  seen: Set<string>,
): Promise<Prompt | undefined> {
  const promptId = linkedPromptId(link);
  if (!promptId || seen.has(promptId)) return undefined;
  const child = await client
    .request<Prompt>('GET', `/api/prompts/${encodeURIComponent(promptId)}`)
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
  const parent = child && parentOf(child);
  return parent?.promptId === prompt.id && parent.toolCallId === toolCallId ? child : undefined;
}
