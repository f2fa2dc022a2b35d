import { type Platform, type Prompt, type PromptRun, parentOf, type ToolOutput } from '@tessera/core';
import { ApprovalPaths } from './approval-paths.ts';
import { type Waiting, waitingOn } from './openai-compat/render.ts';

/**
 * What a prompt waiting for the user really waits on. Its pending call may be **suspended** (it started, then
 * asked to wait: `suspendCall`): a sub-agent's call waits so for the child prompt it started, which waits for
 * the user in turn, maybe for a grandchild. Deciding the suspended call itself only runs it again to find the
 * child still waiting; the decision the user means is the one at the bottom. Clients that see one question
 * per conversation (the OpenAI protocols, the AI SDK chat) ask that one, and follow the top prompt.
 */

/** How deep the walk goes (the agents plugin's own bound is 3 by default). */
const MAX_DEPTH = 8;

export type WaitingBelow = {
  /** The prompt whose call or pause to decide: the top one, or a prompt started for its suspended call. */
  prompt: Prompt;
  waiting: Waiting;
  /** The prompts from the top one's child down to `prompt` (empty when the top one's own call waits). */
  below: Prompt[];
};

/** Whether a pending call is suspended (it ran and asked to wait) rather than waiting to be approved. */
export const isSuspended = (waiting: Waiting): waiting is ToolOutput =>
  waiting.type === 'tool' && waiting.result?.type === 'pending' && waiting.startedAt !== undefined;

/**
 * The decision `top` waits on, down through suspended calls to the waiting prompts they started (read as
 * `userId` only: `ApprovalPaths.waitsOn`). A suspended call whose child is not found or no longer waits (it
 * ended and the call is about to go on, or a tool suspended for something else) is itself the answer:
 * deciding it runs it again.
 */
export async function waitingBelow(
  platform: Platform,
  top: Prompt,
  userId: string,
): Promise<WaitingBelow | undefined> {
  const waiting = waitingOn(top);
  if (!waiting) return undefined;
  const paths = new ApprovalPaths(platform, userId, [top]);
  let found: WaitingBelow = { prompt: top, waiting, below: [] };
  for (let depth = 0; depth < MAX_DEPTH && isSuspended(found.waiting); depth++) {
    const link = await paths.waitsOn(found.prompt, found.waiting);
    const child = link && (await platform.getPrompt(link.promptId, userId));
    const next = child && waitingOn(child);
    if (!child || !next) break;
    found = { prompt: child, waiting: next, below: [...found.below, child] };
  }
  return found;
}

/**
 * Takes a decision below the top prompt (`decide`, which resumes the prompt that waited) and follows the top
 * prompt instead: the run returned is the top prompt's, `done` once it stops again (it resumes when the
 * prompts below it end: then it ends, or waits again) or once a prompt below it asks the user again while it
 * still waits. The decided prompt failing ends the wait too (the top prompt then still waits, and says on what).
 */
export async function decideBelow(
  platform: Platform,
  top: Prompt,
  userId: string,
  decide: () => Promise<PromptRun>,
): Promise<PromptRun> {
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const below = new Set<string>();
  const unsubscribe = platform.events.subscribe({ userId }, (event) => {
    const asks = event.type === 'prompt.approval-requested' || event.type === 'prompt.pause-requested';
    if (event.promptId === top.id) {
      const ends = ['prompt.completed', 'prompt.failed', 'prompt.cancelled'].includes(event.type);
      if (asks || ends) stop();
    } else if (asks) {
      // A question below: the turn ends with it when it is under this top prompt.
      void runsFor(platform, event.promptId, top.id, userId, below).then((under) => under && stop());
    }
  });
  let decided: PromptRun;
  try {
    decided = await decide();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  decided.done.then(
    // The decided prompt stopped without ending: it asks again (its own event may have come before).
    (prompt) => prompt.state === 'waiting_for_approval' && stop(),
    () => stop(),
  );
  const done = stopped.then(() => platform.getPrompt(top.id, userId)).finally(unsubscribe);
  return { prompt: top, done };
}

/** Whether `promptId` runs, at some depth, for a call of `topId` (the user's prompts only). */
async function runsFor(
  platform: Platform,
  promptId: string,
  topId: string,
  userId: string,
  known: Set<string>,
): Promise<boolean> {
  let id = promptId;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (known.has(id)) return true;
    const prompt = await platform.getPrompt(id, userId).catch(() => undefined);
    const parent = prompt && parentOf(prompt);
    if (!parent) return false;
    if (parent.promptId === topId) {
      known.add(promptId);
      return true;
    }
    id = parent.promptId;
  }
  return false;
}
