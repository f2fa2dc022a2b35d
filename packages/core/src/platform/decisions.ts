import { ConflictError, NotFoundError, TesseraError } from '../errors.ts';
import { isoNow as now } from '../iso-now.ts';
import { decidedCall, staticTool } from '../loop/approval.ts';
import { checkRaise } from '../loop/budgets.ts';
import { PromptCompletion } from '../loop/prompt-completion.ts';
import type { OutputBase, PauseOutput, PromptOutput, ToolOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { PauseDecision, PromptRun, ToolCallDecision } from '../plugins/define-plugin.ts';
import type { PlatformContext } from './context.ts';

/**
 * The user's decisions on a waiting prompt: a pending call (approve, with or without edited arguments, or
 * reject) and a pause (continue, past a budget with a larger one, or stop). Each is claimed with one
 * compare-and-set write, so of two decisions at once (in any processes) exactly one wins, and the loop
 * resumes from the store.
 */
export class Decisions {
  readonly #ctx: PlatformContext;

  constructor(ctx: PlatformContext) {
    this.#ctx = ctx;
  }

  async decide(toolCallId: string, decision: ToolCallDecision): Promise<PromptRun> {
    const { prompt, output } = await this.#pendingCall(toolCallId, decision.userId);
    const { runtime } = this.#ctx;
    let tool = staticTool(runtime.plugins, output.toolId);
    // A tool a plugin offers from prepare(): the round it would run in says what its schema is.
    if (!tool && decision.approve && decision.input !== undefined) {
      tool = await (await PromptCompletion.load(runtime, prompt.id)).offeredTool(output.toolId);
    }
    const decided = decidedCall(output, decision, tool, now());
    return this.#apply(prompt, decided, decision.approve ? decided.id : undefined);
  }

  async resume(pauseId: string, decision: PauseDecision): Promise<PromptRun> {
    const { prompt, pause } = await this.#pendingPause(pauseId, decision.userId);
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
    const run = await this.#apply(prompt, decided);
    this.#ctx.events.publish({
      type: 'prompt.pause-decided',
      promptId: prompt.id,
      conversationId: prompt.conversationId,
      userId: prompt.userId,
      outputId: pauseId,
      choice: decision.choice,
      decidedBy: decision.userId,
    });
    return run;
  }

  /** The pending call `toolCallId` of a prompt owned by `userId`, or a clear error. */
  async #pendingCall(toolCallId: string, userId: string) {
    const prompt = (await this.#ctx.store.prompts.findByToolCall(toolCallId)) as Prompt | undefined;
    const output = prompt?.output.find((o): o is ToolOutput => o.type === 'tool' && o.id === toolCallId);
    if (!prompt || !output || prompt.userId !== userId) {
      throw new NotFoundError(`There is no tool call ${toolCallId}.`);
    }
    if (output.result?.type !== 'pending' || prompt.state !== 'waiting_for_approval') {
      throw new ConflictError(`Tool call ${toolCallId} is not waiting for approval: it was already decided.`);
    }
    return { prompt, output };
  }

  /** The pending pause `pauseId` of a prompt owned by `userId`, or a clear error. */
  async #pendingPause(pauseId: string, userId: string) {
    const prompt = (await this.#ctx.store.prompts.findByToolCall(pauseId)) as Prompt | undefined;
    const pause = prompt?.output.find((o): o is PauseOutput => o.type === 'pause' && o.id === pauseId);
    if (!prompt || !pause || prompt.userId !== userId)
      throw new NotFoundError(`There is no pause ${pauseId}.`);
    if (pause.decision || prompt.state !== 'waiting_for_approval') {
      throw new ConflictError(`Pause ${pauseId} is not waiting for a decision: it was already decided.`);
    }
    return { prompt, pause };
  }

  /**
   * Applies a decision (on a call or a pause) atomically, only if the prompt still waits, then resumes the
   * loop; `approved` is the id of a call to run now.
   */
  async #apply(prompt: Prompt, decided: OutputBase, approved?: string): Promise<PromptRun> {
    const { runs, store, events, runtime } = this.#ctx;
    const alreadyDecided = () =>
      new ConflictError(`${decided.id} is not waiting for a decision: it was already decided.`);
    // Reserved before the claim sets it running, so that a periodic recovery here leaves it to this loop.
    if (!runs.reserve(prompt.id)) throw alreadyDecided();
    try {
      const claimed = await store.prompts.update(
        prompt.id,
        { state: 'running', outputs: [decided] },
        { expectState: ['waiting_for_approval'] },
      );
      if (!claimed) throw alreadyDecided();
      const scope = { promptId: prompt.id, conversationId: prompt.conversationId, userId: prompt.userId };
      events.publish({ ...scope, type: 'prompt.output-updated', output: decided as PromptOutput });
      events.publish({ ...scope, type: 'prompt.resumed', state: 'running' });
      const completion = await PromptCompletion.load(runtime, prompt.id);
      const done = this.#ctx.track(runs.run(prompt.id, (signal) => completion.run({ signal, approved })));
      return { prompt: completion.prompt, done };
    } catch (error) {
      runs.release(prompt.id);
      throw error;
    }
  }
}
