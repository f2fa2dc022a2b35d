import { ConflictError, NotFoundError, TesseraError } from '../errors.ts';
import { eventScope } from '../events/events.ts';
import { isoNow as now } from '../iso-now.ts';
import { checkCallDecision, decidedCall, staticTool } from '../loop/approval.ts';
import { checkRaise } from '../loop/budgets.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import type { OutputBase, PauseOutput, PromptOutput, ToolOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { PauseDecision, PromptRun, ToolCallDecision } from '../plugins/define-plugin.ts';
import { immutable } from '../store/frozen.ts';
import type { PlatformContext } from './context.ts';
import { runHere } from './prompt-runs.ts';

// The user's decisions on a waiting prompt: a pending call (approve, with or without edited arguments,
// reject, answer with a result in place of the tool's, or skip) and a pause (continue, past a budget with a larger one, or stop). Each is claimed with one
// compare-and-set write, so of two decisions at once (in any processes) exactly one wins, and the loop
// resumes from the store.

/** `platform.decide()` on a pending tool call. */
export async function decideCall(
  ctx: PlatformContext,
  toolCallId: string,
  decision: ToolCallDecision,
): Promise<PromptRun> {
  // A decision it refuses (two of approve, answer and skip; an answer JSON cannot keep) reads nothing.
  const checked = checkCallDecision(decision);
  const { prompt, output } = await waitingFor(ctx, 'tool', toolCallId, decision.userId);
  const { runtime } = ctx;
  const approved = checked.kind === 'approve' && checked.approve;
  let tool = staticTool(runtime.plugins, output.toolId);
  // A tool a plugin offers from prepare(): the round it would run in says what its schema is.
  if (!tool && approved && checked.input !== undefined) {
    tool = await (await PromptCompletion.load(runtime, prompt.id)).offeredTool(output.toolId);
  }
  const decided = decidedCall(output, checked, tool, now());
  return applyDecision(ctx, prompt, decided, approved ? decided.id : undefined);
}

/** `platform.decide()` on a pause. */
export async function decidePause(
  ctx: PlatformContext,
  pauseId: string,
  decision: PauseDecision,
): Promise<PromptRun> {
  const { prompt, output: pause } = await waitingFor(ctx, 'pause', pauseId, decision.userId);
  if (decision.choice !== 'continue' && decision.choice !== 'stop') {
    throw new TesseraError('invalid_input', "A pause's choice is 'continue' or 'stop'.");
  }
  // Larger budgets to continue past a budget pause, recorded on the pause: planStep reads them from there.
  const raised = checkRaise(prompt, pause, decision.choice, decision.budgets);
  const decided = {
    ...pause,
    decision: decision.choice,
    decidedBy: decision.userId,
    decidedAt: now(),
    ...(raised && { raised }),
  };
  const run = await applyDecision(ctx, prompt, decided);
  ctx.events.publish({
    type: 'prompt.pause-decided',
    ...eventScope(prompt),
    outputId: pauseId,
    choice: decision.choice,
    decidedBy: decision.userId,
  });
  return run;
}

type Waiting = { tool: ToolOutput; pause: PauseOutput };

/** The call or pause `id`, still undecided, of a waiting prompt owned by `userId`; else a clear error. */
async function waitingFor<T extends keyof Waiting>(
  ctx: PlatformContext,
  type: T,
  id: string,
  userId: string,
): Promise<{ prompt: Prompt; output: Waiting[T] }> {
  const prompt = (await ctx.store.prompts.findByToolCall(id)) as Prompt | undefined;
  const output = prompt?.output.find((o) => o.type === type && o.id === id) as Waiting[T] | undefined;
  if (!prompt || !output || prompt.userId !== userId) {
    throw new NotFoundError(`There is no ${type === 'tool' ? 'tool call' : 'pause'} ${id}.`);
  }
  const open: ToolOutput | PauseOutput = output;
  const waiting = prompt.state === 'waiting_for_approval';
  if (open.type === 'tool' && (!waiting || open.result?.type !== 'pending')) {
    throw new ConflictError(`Tool call ${id} is not waiting for approval: it was already decided.`);
  }
  if (open.type === 'pause' && (!waiting || open.decision)) {
    throw new ConflictError(`Pause ${id} is not waiting for a decision: it was already decided.`);
  }
  return { prompt, output };
}

/**
 * Applies a decision (on a call or a pause) atomically, only if the prompt still waits, then resumes the
 * loop; `approved` is the id of a call to run now.
 */
async function applyDecision(
  ctx: PlatformContext,
  prompt: Prompt,
  decided: OutputBase,
  approved?: string,
): Promise<PromptRun> {
  const { store, events, runtime } = ctx;
  // Frozen, as every output the record shares: subscribers are handed this one.
  const output = immutable(decided) as PromptOutput;
  // Reserved before the claim sets it running, so that a periodic recovery here leaves it to this loop.
  const run = await runHere(ctx, prompt, async () => {
    const waiting = { expectState: ['waiting_for_approval' as const] };
    const claimed = await store.prompts.update(prompt.id, { state: 'running', outputs: [output] }, waiting);
    if (!claimed) return undefined; // another decision came first
    const scope = eventScope(prompt);
    events.publish({ ...scope, type: 'prompt.output-updated', output });
    events.publish({ ...scope, type: 'prompt.resumed', state: 'running' });
    return { completion: await PromptCompletion.load(runtime, prompt.id), approved };
  });
  if (!run) throw new ConflictError(`${decided.id} is not waiting for a decision: it was already decided.`);
  return run;
}
