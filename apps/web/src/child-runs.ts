import { createContext, useCallback, useContext, useState } from 'react';
import type { Api, Prompt } from './api.ts';
import { applyEvent, type ServerEvent } from './conversation-state.ts';

/**
 * The prompts that run for a conversation's calls at any depth (a sub-agent's child, its grandchild), as its
 * event stream carries their events (each with its own conversation and prompt id): kept apart from the
 * conversation's own prompts, by id, with the text each is still streaming.
 */
export type ChildRuns = {
  prompts: Record<string, Prompt>;
  /** Text still streaming, per prompt, by the id its output will have. */
  streaming: Record<string, Record<string, string>>;
};

export const NO_CHILD_RUNS: ChildRuns = { prompts: {}, streaming: {} };

/** Child prompts kept at most (a long conversation with many sub-agent runs): the least recently changed go. */
const MAX_CHILD_RUNS = 200;

const withPrompt = (runs: ChildRuns, prompt: Prompt, streaming: Record<string, string>): ChildRuns => {
  const { [prompt.id]: _, ...others } = runs.prompts;
  const prompts = { ...others, [prompt.id]: prompt }; // most recently changed last
  const ids = Object.keys(prompts);
  const kept = ids.length > MAX_CHILD_RUNS ? ids.slice(ids.length - MAX_CHILD_RUNS) : ids;
  return {
    prompts: Object.fromEntries(kept.map((id) => [id, prompts[id]!])),
    streaming: Object.fromEntries(
      kept.map((id) => [
        id,
        id === prompt.id ? streaming : Object.hasOwn(runs.streaming, id) ? runs.streaming[id]! : {},
      ]),
    ),
  };
};

/** The kept run of a prompt id, own keys only (an id is a string the server sent: `constructor` is none). */
const keptRun = (runs: ChildRuns, promptId: string): Prompt | undefined =>
  Object.hasOwn(runs.prompts, promptId) ? runs.prompts[promptId] : undefined;

/**
 * Applies an event of a child prompt (one of another conversation than the stream's). Its first sight is its
 * `prompt.started`, or the prompt read from the API (`seedChildRun`); events of a prompt not seen yet are
 * left out (it is read whole when shown).
 */
export function applyChildEvent(runs: ChildRuns, event: ServerEvent): ChildRuns {
  const known = keptRun(runs, event.promptId);
  if (event.type === 'prompt.started')
    return known || !event.prompt ? runs : withPrompt(runs, event.prompt, {});
  if (!known) {
    // An end carries the whole prompt: a child first seen at its end is shown as it ended.
    const ended = ['prompt.completed', 'prompt.failed', 'prompt.cancelled'].includes(event.type);
    return ended && event.prompt ? withPrompt(runs, event.prompt, {}) : runs;
  }
  const next = applyEvent(
    { prompts: [known], streaming: Object.hasOwn(runs.streaming, known.id) ? runs.streaming[known.id]! : {} },
    event,
  );
  return withPrompt(runs, next.prompts[0]!, next.streaming);
}

/**
 * A child prompt as read from the API: taken unless the copy kept is as recent (events applied to it since
 * it was read are newer than a read that raced them).
 */
export function seedChildRun(runs: ChildRuns, prompt: Prompt): ChildRuns {
  const known = keptRun(runs, prompt.id);
  if (known && known.updatedAt >= prompt.updatedAt) return runs;
  return withPrompt(
    runs,
    prompt,
    known && Object.hasOwn(runs.streaming, prompt.id) ? runs.streaming[prompt.id]! : {},
  );
}

/** What a conversation's record gives the `agent-run` cards inside it, to show their child's run inline. */
export type ChildRunsContextValue = {
  runs: ChildRuns;
  /** Reads a child prompt from the API (on first sight, and when its parent's card says it changed). */
  load: (promptId: string) => Promise<void>;
  /** A file of a child's conversation. */
  fileUrl: (conversationId: string, fileId: string, inline: boolean) => string;
};

export const ChildRunsContext = createContext<ChildRunsContextValue | undefined>(undefined);

export const useChildRuns = () => useContext(ChildRunsContext);

/** The prompts an `agent-run` card is nested in (outermost first): bounds the depth, and a cycle stops. */
export const NestingContext = createContext<readonly string[]>([]);

/** How many sub-agent runs deep the record shows inline; deeper ones are a link to their conversation. */
export const MAX_INLINE_DEPTH = 4;

/** The child runs of a conversation's stream: `apply` its events of other conversations, `load` one by id. */
export function useChildRunsState(api: Api) {
  const [runs, setRuns] = useState<ChildRuns>(NO_CHILD_RUNS);
  const load = useCallback(
    async (promptId: string) => {
      const prompt = await api.prompt(promptId);
      setRuns((kept) => seedChildRun(kept, prompt));
    },
    [api],
  );
  const apply = useCallback((event: ServerEvent) => setRuns((kept) => applyChildEvent(kept, event)), []);
  const clear = useCallback(() => setRuns(NO_CHILD_RUNS), []);
  return { runs, load, apply, clear };
}
