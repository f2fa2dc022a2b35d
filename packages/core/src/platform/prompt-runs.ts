import { ConflictError, TesseraError } from '../errors.ts';
import { newId } from '../ids.ts';
import { isoNow as now } from '../iso-now.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import type { OutputBase } from '../model/outputs.ts';
import { emptyUsage, type Prompt, type PromptRecord } from '../model/prompt.ts';
import type { PromptRun, SendOptions, StartedPrompt } from '../plugins/define-plugin.ts';
import type { PlatformContext } from './context.ts';

/** Ids chosen by callers stay safe in URLs, paths and logs. */
const PROMPT_ID = /^[\w-]{1,100}$/;

/** The new prompt `send` describes, validated, as it is first stored. */
function newPrompt(ctx: PlatformContext, send: SendOptions, conversationId: string): PromptRecord {
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
    conversationId,
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

/** `platform.start()`: creates the prompt (the store refuses a busy conversation) and starts its loop. */
export async function startPrompt(ctx: PlatformContext, send: SendOptions): Promise<StartedPrompt> {
  const { store, runs, events, runtime } = ctx;
  const conversation = await ctx.conversationOf(send.conversationId, send.userId);
  const record = newPrompt(ctx, send, conversation.id);
  // A conversation's first prompt has no history to read (its prompt ids came with the conversation).
  const history =
    conversation.promptIds.length === 0
      ? []
      : ((await store.prompts.listByConversation(conversation.id)) as Prompt[]);
  // Reserved before it exists, so that a periodic recovery here never takes it for an orphan.
  if (!runs.reserve(record.id)) throw new ConflictError(`Prompt ${record.id} already exists.`);
  try {
    await store.prompts.create(record);
  } catch (error) {
    runs.release(record.id);
    throw error;
  }
  const prompt = record as Prompt;
  const scope = { promptId: prompt.id, conversationId: conversation.id, userId: prompt.userId };
  events.publish({ type: 'prompt.started', ...scope, prompt });
  const completion = new PromptCompletion(runtime, prompt, conversation, history);
  const done = ctx.track(runs.run(prompt.id, (signal) => completion.run({ signal }), send.signal));
  return { prompt, done, conversation };
}

/**
 * `platform.recover()`: resumes the running prompts no live process runs (those this process runs or has
 * reserved stay as they are), then starts the messages that wait for conversations with nothing running.
 */
export async function recoverPrompts(ctx: PlatformContext): Promise<PromptRun[]> {
  const { store, runs } = ctx;
  const claimed = await store.prompts.claimOrphans({ except: runs.ids() });
  // What this process started meanwhile (a send, an approval, a cancel, another recovery) stays with it.
  const orphans = claimed.filter((orphan) => runs.reserve(orphan.id));
  const resumed = await Promise.all(orphans.map((orphan) => resumeOrphan(ctx, orphan)));
  // Messages that waited for a conversation whose prompt ended in a process that stopped.
  for (const conversationId of (await store.messages?.conversationsWithMessages()) ?? []) {
    const run = await ctx.followUps.next(conversationId);
    if (run) resumed.push(run);
  }
  return resumed.filter((run) => run !== undefined);
}

async function resumeOrphan(ctx: PlatformContext, orphan: PromptRecord): Promise<PromptRun | undefined> {
  const { runs, runtime, events } = ctx;
  try {
    const completion = await PromptCompletion.load(runtime, orphan.id);
    // Its loop here ended between the claim and now.
    if (completion.prompt.state !== 'running') {
      runs.release(orphan.id);
      return undefined;
    }
    const scope = { promptId: orphan.id, conversationId: orphan.conversationId, userId: orphan.userId };
    events.publish({ type: 'prompt.resumed', ...scope, state: 'running' });
    const done = ctx.track(runs.run(orphan.id, (signal) => completion.run({ signal })));
    return { prompt: completion.prompt, done };
  } catch (error) {
    runs.release(orphan.id);
    throw error;
  }
}
