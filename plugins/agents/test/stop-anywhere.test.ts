import {
  ConflictError,
  type Conversation,
  createMemoryStore,
  createPlatform,
  createTool,
  definePlugin,
  isFinalState,
  type Platform,
  type PluginError,
  type Prompt,
  promptsToMessages,
  type Store,
  type ToolOutput,
} from '@tessera/core';
import {
  assertWellFormed,
  callTool,
  ProcessStopped,
  reply,
  ScriptedModel,
  stoppingStore,
} from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentOptions, type AgentRun, agentsPlugin, childPromptId } from '../src/index.ts';
import { keepOpen, userId } from './durable.ts';
import { appPlugin, whoAsks } from './helpers.ts';

// A tree of agents whose deepest level waits for the user, with the process killed after each of its writes
// in turn (as core's stop-anywhere.test.ts does for one prompt): user prompt → a → b (→ c), the deepest
// either calling work.do, which needs approval (the user approves it with edited arguments), or calling a
// read-only tool and then pausing (a betweenRounds pause, as the doom-loop plugin's; the user continues).
// Process 1 (an opened platform) runs until its store stops it; the user decides there if it got that far.
// Process 2 (a new opened platform over what process 1 left) recovers, sweeps, and the user decides the
// deepest level's call or pause if it still waits (never a parent's suspended agent call: those resume by
// themselves, or the test fails). Whatever write the kill came after, the user's prompt ends completed with
// every level's answer, each child started once and completed, nothing doubled; work.do ran only once
// approved, with the edited arguments, at most once. Every write is a kill point (35 at depth 2, 49 at
// depth 3 for the approval: about a second in all). Exactly once holds unless the kill fell between the
// approval's claim and the tool's result: a tool with side effects is then never run again (core's
// at-most-once), and its call ends `interrupted`.

const ROOT = 'prm_root';
const LEVELS = ['a', 'b', 'c'] as const;

/** What the deepest level waits for: an approval of work.do (given with edited arguments), or a pause. */
type Mode = 'approval' | 'pause';
/** The deepest level's tool, by mode. */
const bottomTool = (mode: Mode) => (mode === 'approval' ? 'work.do' : 'notes.read');
const EDITED = { what: 'edited' };

/** The agents of a tree `depth` deep: each calls the next, the last calls its tool. */
function agents(depth: number, mode: Mode = 'approval'): AgentOptions[] {
  return LEVELS.slice(0, depth).map((name, i) => ({
    name,
    description: `Agent ${name}.`,
    instructions: `You are ${name}.`,
    tools: [i + 1 < depth ? `agent.${LEVELS[i + 1]}` : bottomTool(mode)],
  }));
}

/** What each level answers once its call has a result. */
const answerOf = (who: string) => `${who} is done.`;

/**
 * A model that answers from the request alone (a process that stops may have asked it already): each level
 * calls the next (the last `work.do`) until its prompt holds a call, then answers.
 */
function model(depth: number, mode: Mode): ScriptedModel {
  const next = (who: string) => {
    const i = who === 'parent' ? 0 : LEVELS.indexOf(who as (typeof LEVELS)[number]) + 1;
    return i < depth
      ? callTool(`agent.${LEVELS[i]}`, { task: `Do it, ${LEVELS[i]}.` })
      : callTool(bottomTool(mode), { what: 'it' });
  };
  return new ScriptedModel(
    Array.from({ length: 100 }, () => (request) => {
      const who = whoAsks(request);
      return request.messages.some((m) => m.type === 'function_call') ? reply(answerOf(who)) : next(who);
    }),
  );
}

/** A process: a platform over `store`, opened. `stopped` says when the process is dead: its tool does nothing. */
async function processOn(
  store: Store,
  depth: number,
  mode: Mode,
  ran: string[],
  stopped: () => boolean,
): Promise<{ platform: Platform; errors: PluginError[] }> {
  const errors: PluginError[] = [];
  const read = createTool({
    id: 'notes.read',
    description: 'Reads the notes.',
    input: z.object({ what: z.string() }),
    readOnly: true,
    invoke: ({ input }) => {
      if (stopped()) throw new ProcessStopped();
      ran.push(input.what);
      return 'the notes';
    },
  });
  // The deepest agent pauses once, after its tool's round (what the doom-loop plugin does on a repeat).
  const bottom = LEVELS[depth - 1];
  const pauser = definePlugin({
    id: 'pauser',
    hooks: {
      betweenRounds: ({ prompt }) =>
        mode === 'pause' &&
        prompt.metadata?.agent === bottom &&
        !prompt.output.some((o) => o.type === 'pause') &&
        prompt.output.some((o) => o.type === 'tool')
          ? { pause: 'The same call again? Continue, or stop?' }
          : undefined,
    },
  });
  const work = createTool({
    id: 'work.do',
    description: 'Does something that needs approval.',
    input: z.object({ what: z.string() }),
    requireApproval: { required: true, reason: 'It changes things.' },
    invoke: async ({ input, toolCallId }) => {
      // A killed process runs nothing after its last write.
      if (stopped()) throw new ProcessStopped();
      // Only once approved: the approval is in the store before the tool runs.
      const stored = (await store.prompts.findByToolCall(toolCallId)) as Prompt | undefined;
      const call = stored?.output.find((o) => o.id === toolCallId);
      ran.push(call?.type === 'tool' && call.approval?.decision === 'approved' ? input.what : 'unapproved');
      return 'done';
    },
  });
  const platform = createPlatform({
    plugins: [appPlugin([work, read]), agentsPlugin({ agents: agents(depth, mode) }), pauser],
    store,
    model: model(depth, mode),
    onPluginError: (error) => errors.push(error),
  });
  await platform.open();
  return { platform, errors };
}

const ends = new Set(['prompt.completed', 'prompt.failed', 'prompt.cancelled']);

/** Resolves once the root prompt ended, in this process. */
function rootEnded(platform: Platform): Promise<void> {
  return new Promise((resolve) => {
    platform.events.subscribe({ promptId: ROOT }, (event) => {
      if (ends.has(event.type)) resolve();
    });
  });
}

const ignoreStopped = (error: unknown) => {
  if (!(error instanceof ProcessStopped)) throw error;
};

/** A decision the deepest level waits for: its call of work.do, or its pause. */
type BottomWait = { kind: 'call' | 'pause'; id: string };

/** The user's decision on it: approve with edited arguments, or continue. */
async function decideBottom(platform: Platform, wait: BottomWait): Promise<void> {
  const run = await platform.decide(
    wait.id,
    wait.kind === 'call' ? { userId, approve: true, input: EDITED } : { userId, choice: 'continue' },
  );
  run.done.catch(ignoreStopped);
}

/** Calls `found` with each decision the deepest level asks for, in this process. */
function onBottomWaits(platform: Platform, found: (wait: BottomWait) => void): void {
  platform.events.subscribe({ userId }, (event) => {
    if (event.type === 'prompt.approval-requested' && event.toolId === 'work.do')
      found({ kind: 'call', id: event.toolCallId });
    if (event.type === 'prompt.pause-requested') found({ kind: 'pause', id: event.outputId });
  });
}

/**
 * Process 1 over `store`: the user sends, and approves the deepest call once it waits; it runs until the
 * root prompt ends or the store stops it, and is then closed (its work in flight ends: every write fails).
 */
async function firstProcess(
  store: Store,
  conversation: Conversation,
  depth: number,
  mode: Mode,
  ran: string[],
  stopping?: { stopped(): boolean; untilStopped(): Promise<void> },
  resumed?: Map<string, number>,
): Promise<boolean> {
  const stopped = stopping?.untilStopped() ?? new Promise<void>(() => {});
  const { platform } = await processOn(store, depth, mode, ran, () => stopping?.stopped() ?? false);
  const ended = rootEnded(platform);
  platform.events.subscribe({ userId }, (event) => {
    if (event.type === 'prompt.resumed') resumed?.set(event.promptId, (resumed.get(event.promptId) ?? 0) + 1);
  });
  let approved = false;
  const bottomWaits = new Promise<BottomWait>((resolve) => onBottomWaits(platform, resolve));
  try {
    const run = await platform.start({
      conversationId: conversation.id,
      userId,
      input: 'Go.',
      promptId: ROOT,
    });
    run.done.catch(ignoreStopped);
    const wait = await Promise.race([bottomWaits, stopped.then(() => undefined)]);
    if (wait !== undefined) {
      await decideBottom(platform, wait);
      approved = true;
    }
    await Promise.race([ended, stopped]);
  } catch (error) {
    ignoreStopped(error);
  }
  await platform.close();
  return approved;
}

/** Every prompt of the user, in every conversation. */
async function allPrompts(store: Store): Promise<Prompt[]> {
  const conversations = await store.conversations.listByUser(userId, { limit: 1_000 });
  const prompts = await Promise.all(conversations.items.map((c) => store.prompts.listByConversation(c.id)));
  return prompts.flat() as Prompt[];
}

/** The decisions the deepest level waits for, in the store: a pending call of `work.do`, a pause. */
async function bottomPending(store: Store): Promise<BottomWait[]> {
  const waiting = (await store.prompts.listByState('waiting_for_approval')) as Prompt[];
  return waiting.flatMap((prompt) =>
    prompt.output.flatMap((o): BottomWait[] => {
      if (o.type === 'tool' && o.toolId === 'work.do' && o.result?.type === 'pending')
        return [{ kind: 'call', id: o.id }];
      return o.type === 'pause' && !o.decision ? [{ kind: 'pause', id: o.id }] : [];
    }),
  );
}

/** Process 2 over what process 1 left: recovers, sweeps, and the user approves the deepest call if it waits. */
async function secondProcess(
  inner: Store,
  depth: number,
  mode: Mode,
  ran: string[],
  at: string,
): Promise<PluginError[]> {
  const { platform, errors } = await processOn(keepOpen(inner), depth, mode, ran, () => false);
  const ended = rootEnded(platform);
  const approve = async () => {
    for (const wait of await bottomPending(inner)) {
      try {
        await decideBottom(platform, wait);
      } catch (error) {
        if (!ConflictError.is(error)) throw error;
      }
    }
  };
  const approving: Promise<void>[] = [];
  onBottomWaits(platform, () => approving.push(approve()));
  for (const run of await platform.recover()) run.done.catch(() => {});
  approving.push(approve());
  const root = (await inner.prompts.get(ROOT)) as Prompt | undefined;
  if (root && !isFinalState(root.state)) {
    // Not a timing assertion: a root that never ends is a bug, and this names the kill point.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(async () => {
        const states = (await allPrompts(inner)).map((p) => `${p.id}:${p.state}`).join(', ');
        reject(new Error(`${at}: the root prompt never ended (${states})`));
      }, 20_000);
    });
    try {
      await Promise.race([ended, stuck]);
    } finally {
      clearTimeout(timer);
    }
  }
  await Promise.all(approving);
  await platform.close();
  return errors;
}

/** What must hold in the store once both processes are done, whatever write process 1 stopped after. */
async function check(inner: Store, depth: number, mode: Mode, ran: string[], at: string): Promise<void> {
  const prompts = await allPrompts(inner);
  const outputs = createPlatform({
    plugins: [agentsPlugin({ agents: agents(1) })],
    model: model(1, mode),
  }).outputs;
  const root = prompts.find((p) => p.id === ROOT);
  expect(root?.state, `${at} ${JSON.stringify(root?.stopReason)}`).toBe('completed');
  // One prompt per level: no call started a second child.
  expect(prompts.map((p) => p.metadata?.agent ?? 'root').sort(), at).toEqual(
    ['root', ...LEVELS.slice(0, depth)].sort(),
  );
  let prompt = root!;
  for (let level = 0; level <= depth; level++) {
    expect(prompt.state, at).toBe('completed');
    expect(new Set(prompt.output.map((o) => o.id)).size, at).toBe(prompt.output.length);
    assertWellFormed(promptsToMessages([prompt], { outputs }));
    const calls = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(calls, at).toHaveLength(1);
    const call = calls[0]!;
    const last = prompt.output.at(-1);
    expect(last?.type === 'text' && last.text, at).toBe(
      answerOf(level === 0 ? 'parent' : LEVELS[level - 1]!),
    );
    const pauses = prompt.output.filter((o) => o.type === 'pause');
    if (level === depth && mode === 'pause') {
      // The deepest level paused once, the user continued it, and its read-only call has its result (run
      // again if a kill cut it off: read-only calls are).
      expect(pauses, at).toMatchObject([{ decision: 'continue', decidedBy: userId }]);
      expect(call.toolId, at).toBe('notes.read');
      expect(call.result, at).toEqual({ type: 'success', output: 'the notes' });
      expect(ran.length, at).toBeGreaterThan(0);
      break;
    }
    expect(pauses, at).toEqual([]);
    if (level === depth) {
      // The deepest call: approved with the user's arguments, then run with them once; or, cut off after it
      // started, interrupted (run at most once).
      expect(call.toolId, at).toBe('work.do');
      expect(call.approval?.decision, at).toBe('approved');
      expect(call.editedInput, at).toEqual(EDITED);
      if (call.result?.type === 'success') expect(ran, at).toEqual([EDITED.what]);
      else {
        expect(call.result, at).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
        expect(ran.length, at).toBeLessThanOrEqual(1);
        for (const what of ran) expect(what, at).toBe(EDITED.what);
      }
      break;
    }
    expect(call.toolId, at).toBe(`agent.${LEVELS[level]}`);
    const child = prompts.find((p) => p.id === childPromptId(call.id));
    expect(child?.metadata?.agent, at).toBe(LEVELS[level]);
    expect(call.result?.type, at).toBe('success');
    const run = (call.result?.type === 'success' && call.result.output) as AgentRun;
    expect(run.answer, at).toBe(answerOf(LEVELS[level]!));
    expect(run.promptId, at).toBe(child!.id);
    // The parent's record links to its child once.
    expect(
      prompt.output.filter((o) => o.type === 'agent-run'),
      at,
    ).toMatchObject([{ promptId: child!.id, state: 'completed' }]);
    prompt = child!;
  }
}

/** Runs the tree once without a kill; returns the writes process 1 makes and the conversation it uses. */
async function countWrites(depth: number, mode: Mode) {
  const inner = createMemoryStore();
  const full = stoppingStore(inner);
  const conversation = await createPlatform({ model: model(depth, mode), store: inner }).conversations.create(
    {
      userId,
    },
  );
  const ran: string[] = [];
  const resumed = new Map<string, number>();
  await firstProcess(full.store, conversation, depth, mode, ran, undefined, resumed);
  await check(inner, depth, mode, ran, 'never stopped');
  // Without a kill: the user's decision resumed the deepest level, and each level above resumed once.
  const ids = (await allPrompts(inner)).map((p) => p.id);
  expect(Object.fromEntries(resumed)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  return { total: full.writes(), conversation };
}

describe.each([
  [2, 'approval'],
  [3, 'approval'],
  [3, 'pause'],
] as const)(
  'a tree %i deep whose deepest level waits for an %s, its process killed after any write',
  (depth, mode) => {
    it('completes the user prompt: each level answers once, the approved tool runs at most once, as edited', {
      timeout: 300_000,
    }, async () => {
      const { total, conversation } = await countWrites(depth, mode);
      expect(total).toBeGreaterThan(10 * depth);
      const failures: string[] = [];
      // How the kill points went: the user decided in process 1 (else in process 2); the approved call was
      // cut off (its process stopped between the approval and the tool's result: interrupted, never run
      // twice); a child conversation was left empty (stopped between creating it and starting the child).
      const seen = { decidedInFirst: 0, cutOff: 0, emptyConversations: 0 };
      for (let limit = 1; limit <= total; limit++) {
        const at = `depth ${depth}, ${mode}, stopped after write ${limit} of ${total}`;
        const inner = createMemoryStore();
        await inner.conversations.create({ ...conversation });
        const ran: string[] = [];
        const stopping = stoppingStore(inner, limit);
        if (await firstProcess(stopping.store, conversation, depth, mode, ran, stopping))
          seen.decidedInFirst++;
        try {
          const errors = await secondProcess(inner, depth, mode, ran, at);
          await check(inner, depth, mode, ran, at);
          expect(errors, at).toEqual([]);
        } catch (error) {
          failures.push(String(error).split('\n')[0]!);
        }
        if (ran.length === 0) seen.cutOff++;
        const conversations = (await inner.conversations.listByUser(userId, { limit: 1_000 })).items;
        for (const c of conversations) if (c.promptIds.length === 0) seen.emptyConversations++;
      }
      expect(failures).toEqual([]);
      // Both sides of the user's decision were stopped at: before it (process 2 asks) and after it.
      expect(seen.decidedInFirst).toBeGreaterThan(0);
      expect(seen.decidedInFirst).toBeLessThan(total);
      console.log(`depth ${depth}, ${mode}: ${total} kill points`, seen);
    });
  },
);
