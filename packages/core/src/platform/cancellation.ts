import { ConflictError } from '../errors.ts';
import { eventScope } from '../events/events.ts';
import { isoNow as now } from '../iso-now.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import { toolError } from '../loop/tool-result.ts';
import type { PromptOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { PlatformContext } from './context.ts';
import { runHere } from './prompt-runs.ts';

/**
 * `platform.cancel()`: a prompt running here is aborted; one whose process died is claimed and ended here at
 * once; one running in another live process is asked to stop through the relay; a waiting one is closed in
 * one conditional write. A cancel leaves the conversation's waiting messages where they are.
 */
export async function cancelPrompt(
  ctx: PlatformContext,
  promptId: string,
  by: { userId: string },
): Promise<Prompt> {
  const { runs, store, relay } = ctx;
  const prompt = await ctx.getPrompt(promptId, by.userId);
  if (runs.has(promptId)) {
    // A loop that paused just as it was aborted leaves a waiting prompt: its pending calls are closed below.
    const stopped = await runs.abort(promptId);
    return stopped && stopped.state !== 'waiting_for_approval' ? stopped : cancelPrompt(ctx, promptId, by);
  }
  if (prompt.state === 'running' && store.relay) {
    // Its process died (only a store that processes share, one with a relay, can tell): stopped here at
    // once, rather than asking a process that cannot answer.
    const orphan = await cancelOrphan(ctx, prompt);
    // (A process stopped just before pausing pauses it again: then its pending calls are closed below.)
    if (orphan) return orphan.state === 'waiting_for_approval' ? cancelPrompt(ctx, promptId, by) : orphan;
  }
  if (prompt.state === 'running' && relay) {
    // Running in another process: ask it to stop, then report what it recorded.
    await cancelElsewhere(ctx, prompt);
    const after = await ctx.getPrompt(promptId, by.userId);
    if (after.state === 'waiting_for_approval') return cancelPrompt(ctx, promptId, by);
    if (after.state === 'running') {
      throw new ConflictError(`Prompt ${promptId} runs in another process, which did not stop it in time.`);
    }
    return after;
  }
  if (prompt.state !== 'waiting_for_approval') {
    throw new ConflictError(
      `Prompt ${promptId} is ${prompt.state}; only a running or waiting prompt can be cancelled here.`,
    );
  }
  return cancelWaiting(ctx, prompt, by.userId);
}

/** Closes a waiting prompt's open calls (`cancelled`) and its pause (`stop`) in one conditional write. */
async function cancelWaiting(ctx: PlatformContext, prompt: Prompt, userId: string): Promise<Prompt> {
  const { store, events } = ctx;
  const at = now();
  const closed: PromptOutput[] = [];
  for (const o of prompt.output) {
    if (o.type === 'tool' && (!o.result || o.result.type === 'pending')) {
      const result = toolError('cancelled', 'The prompt was cancelled before this call ran.');
      closed.push({ ...o, result, endedAt: at });
    } else if (o.type === 'pause' && !o.decision) {
      closed.push({ ...o, decision: 'stop', decidedBy: userId, decidedAt: at });
    }
  }
  // Steering it recorded but the model never answered waits again (still on the list): the next prompt.
  const unread = await unreadSteering(ctx, prompt);
  const stopReason = { code: 'cancelled', message: 'Cancelled while waiting for approval.' };
  const applied = await store.prompts.update(
    prompt.id,
    {
      state: 'cancelled',
      stopReason,
      outputs: closed,
      ...(unread.length > 0 && { removeOutputs: unread.map((output) => output.id) }),
    },
    { expectState: ['waiting_for_approval'] },
  );
  if (!applied)
    throw new ConflictError(`Prompt ${prompt.id} changed while it was being cancelled; try again.`);
  const updated = await ctx.getPrompt(prompt.id, userId);
  const scope = eventScope(prompt);
  for (const output of closed) events.publish({ ...scope, type: 'prompt.output-updated', output });
  for (const output of unread)
    events.publish({ ...scope, type: 'prompt.output-removed', outputId: output.id });
  events.publish({ ...scope, type: 'prompt.cancelled', prompt: updated });
  // The conversation's waiting messages stay; the next one runs now (asked whether or not one is marked).
  void ctx.nextMessage(prompt.conversationId).catch(ctx.reportRecoveryError);
  return updated;
}

/** The prompt's steering outputs whose messages are still on the list: no model call answered them. */
async function unreadSteering(ctx: PlatformContext, prompt: Prompt): Promise<PromptOutput[]> {
  const { messages } = ctx.store;
  if (!messages || !prompt.output.some((o) => o.type === 'steering')) return [];
  const waiting = new Set((await messages.list(prompt.conversationId)).map((message) => message.id));
  return prompt.output.filter((o) => o.type === 'steering' && waiting.has(o.messageId));
}

/** Asks the process running the prompt to cancel it, and resolves once its loop stopped (or the wait ran out). */
async function cancelElsewhere(ctx: PlatformContext, prompt: Prompt): Promise<void> {
  const { events, store, relay, options } = ctx;
  const { id: promptId, conversationId } = prompt;
  // Listening before asking; a stream of one prompt ends with its loop's end, or when the wait runs out.
  const wait = AbortSignal.timeout(options.remoteCancelTimeoutMs ?? 10_000);
  const unfollow = events.follow(`conversation:${conversationId}`);
  const stopped = events.stream({ promptId }, { signal: wait });
  try {
    // It may have stopped before we listened.
    if ((await store.prompts.get(promptId))?.state !== 'running') return;
    relay?.publish({ kind: 'cancel', promptId, conversationId });
    for await (const _event of stopped);
  } finally {
    await stopped.return?.();
    unfollow();
  }
}

/**
 * Stops, here and at once, a running prompt whose process died (the store hands it over): its loop ends
 * `cancelled` without calling the model. Resolves with `undefined` when the prompt is not such an orphan.
 */
async function cancelOrphan(ctx: PlatformContext, prompt: Prompt): Promise<Prompt | undefined> {
  const run = await runHere(ctx, prompt, async () => {
    if (!(await ctx.store.prompts.claimOrphan(prompt.id))) return undefined;
    const completion = await PromptCompletion.load(ctx.runtime, prompt.id);
    return { completion, signal: AbortSignal.abort() };
  });
  return run?.done;
}
