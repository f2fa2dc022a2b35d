import { ConflictError, TesseraError } from '../errors.ts';
import { eventScope } from '../events/events.ts';
import { newId } from '../ids.ts';
import { isoNow as now } from '../iso-now.ts';
import { refuseFull } from '../loop/conversation-size.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import type { Conversation } from '../model/conversation.ts';
import type { OutputBase } from '../model/outputs.ts';
import { emptyUsage, type Prompt } from '../model/prompt.ts';
import type { PromptRun, SendOptions, StartedPrompt } from '../plugins/define-plugin.ts';
import type { PlatformContext } from './context.ts';
import { validTitle } from './conversations.ts';

/** Ids chosen by callers stay safe in URLs, paths and logs. */
const PROMPT_ID = /^[\w-]{1,100}$/;

/** The new prompt `send` describes, validated, as it is first stored. */
export function newPrompt(ctx: PlatformContext, send: Omit<SendOptions, 'signal'>): Prompt {
  if (send.input !== undefined && typeof send.input !== 'string') {
    throw new TesseraError('invalid_input', 'The input must be a string.');
  }
  if (send.promptId !== undefined && !PROMPT_ID.test(send.promptId)) {
    throw new TesseraError('invalid_input', 'A prompt id is 1-100 of A-Z, a-z, 0-9, _ and -.');
  }
  const at = now();
  const { outputs } = ctx.runtime;
  return {
    id: send.promptId ?? newId('prm'),
    conversationId: send.conversationId,
    userId: send.userId,
    model: send.model ?? 'normal',
    visible: send.visible ?? true,
    state: 'running',
    ...(send.input !== undefined && { input: send.input }),
    output: (send.outputs ?? []).map((output) =>
      outputs.validate({ ...output, id: output.id ?? newId('out'), createdAt: at } as OutputBase),
    ),
    usage: emptyUsage(),
    ...(send.metadata && { metadata: send.metadata }),
    createdAt: at,
    updatedAt: at,
  };
}

/** What a loop about to run here is given: its prompt loaded, a call just approved, an outer signal. */
type LoopStart = { completion: PromptCompletion; approved?: string; signal?: AbortSignal };

/**
 * Runs a prompt's loop in this process. The prompt is reserved first, so that nothing else here (a periodic
 * recovery, a cancel) starts a second loop for it while `start` takes it over in the store and loads it;
 * `start` resolving `undefined` (the prompt is not this process's to run) or throwing gives it up. Resolves
 * `undefined` when no loop started, also when the prompt was reserved already.
 */
export async function runHere(
  ctx: PlatformContext,
  prompt: { id: string; conversationId: string },
  start: () => Promise<LoopStart | undefined>,
): Promise<PromptRun | undefined> {
  const { runs, events } = ctx;
  if (!runs.reserve(prompt.id)) return undefined;
  // Routed relays: this process receives its conversation's messages (a cancel, steering) while it runs it.
  const unfollow = events.follow(`conversation:${prompt.conversationId}`);
  try {
    const loop = await start();
    if (loop) {
      const { completion, approved, signal } = loop;
      const running = runs.run(prompt.id, (stop) => completion.run({ signal: stop, approved }), signal);
      return { prompt: completion.prompt, done: ctx.track(running.finally(unfollow)) };
    }
  } catch (error) {
    runs.release(prompt.id);
    unfollow();
    throw error;
  }
  runs.release(prompt.id);
  unfollow();
  return undefined;
}

/**
 * Stores a new prompt and returns what its loop starts from: its conversation and the history before it. A
 * store with `createWithHistory` is asked once (in PostgreSQL one statement, not a read and a write); from
 * another, the user's conversation is read first, then the prompt created. `title` names an untitled
 * conversation: in the same statement there, by a rename after the create here.
 */
async function createPrompt(ctx: PlatformContext, prompt: Prompt, title: string | undefined) {
  const { prompts, conversations } = ctx.store;
  if (prompts.createWithHistory) {
    const created = await prompts.createWithHistory(prompt, title === undefined ? undefined : { title });
    return created as { conversation: Conversation; history: Prompt[] };
  }
  const read = await ctx.conversationWithHistory(prompt.conversationId, prompt.userId);
  await prompts.create(prompt);
  if (title !== undefined && read.conversation.title === undefined) {
    await conversations.rename(prompt.conversationId, title);
  }
  return read;
}

/**
 * Starts a prompt (`platform.start()`, a waiting message): creates the prompt (the store refuses a busy
 * conversation, and one not the user's) and starts its loop.
 */
export async function startPrompt(ctx: PlatformContext, send: SendOptions): Promise<StartedPrompt> {
  const { events, runtime } = ctx;
  const prompt = newPrompt(ctx, send);
  const title = send.title === undefined ? undefined : validTitle(send.title);
  let conversation: Conversation | undefined;
  const run = await runHere(ctx, prompt, async () => {
    const created = await createPrompt(ctx, prompt, title);
    conversation = created.conversation;
    events.publish({ type: 'prompt.started', ...eventScope(prompt), prompt });
    const completion = new PromptCompletion(runtime, prompt, conversation, created.history, true);
    return { completion, signal: send.signal };
  });
  if (!run) throw new ConflictError(`Prompt ${prompt.id} already exists.`);
  // The prompt as created: the run's own copy changes as its loop goes on. A run started has its conversation.
  return { prompt, done: run.done, conversation: conversation! };
}

/**
 * `platform.start()` and `send()`: refuses a conversation found full before anything is written (a waiting
 * message, accepted before, still starts: its prompt ends as the conversation is full, its input kept).
 */
export async function sendPrompt(ctx: PlatformContext, send: SendOptions): Promise<StartedPrompt> {
  refuseFull(ctx.runtime, send);
  return startPrompt(ctx, send);
}

/**
 * `platform.recover()`: resumes the running prompts no live process runs (those this process runs or has
 * reserved stay as they are), then starts the messages that wait for conversations with nothing running.
 */
export async function recoverPrompts(ctx: PlatformContext): Promise<PromptRun[]> {
  const { store, runs, runtime, events } = ctx;
  const claimed = await store.prompts.claimOrphans({ except: runs.ids() });
  // What this process started meanwhile (a send, an approval, a cancel, another recovery) stays with it.
  const resumed = await Promise.all(
    claimed.map((orphan) =>
      runHere(ctx, orphan, async () => {
        const completion = await PromptCompletion.load(runtime, orphan.id);
        // Its loop here ended between the claim and now.
        if (completion.prompt.state !== 'running') return undefined;
        events.publish({ type: 'prompt.resumed', ...eventScope(orphan), state: 'running' });
        return { completion };
      }),
    ),
  );
  // Messages that waited for a conversation whose prompt ended in a process that stopped.
  for (const conversationId of (await store.messages?.conversationsWithMessages()) ?? []) {
    const run = await ctx.nextMessage(conversationId);
    if (run) resumed.push(run);
  }
  return resumed.filter((run) => run !== undefined);
}
