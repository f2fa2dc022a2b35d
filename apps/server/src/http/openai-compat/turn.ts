import {
  type ModelClass,
  newId,
  type Platform,
  type Prompt,
  type PromptRun,
  type PromptUsage,
} from '@tessera/core';
import { decideBelow, type WaitingBelow, waitingBelow } from '../waiting-below.ts';
import { decisionOf, doubledBudget, emittedText, type Links, type Waiting, waitingText } from './render.ts';

/**
 * One request of an OpenAI client, as Tessera runs it: the user's new message starts a prompt in the
 * conversation, or decides the call the conversation's prompt waits on ("approve" / "reject"), or, while a
 * call waits, is kept as steering that the model reads once the call is decided. Its text (the model's, the
 * widgets' and files' as text, and the question when something waits) is read as it comes or whole.
 */

/** The text of a turn as it grows: read whole once it ends, or piece by piece (all that came since the last). */
export class TextFeed {
  #text = '';
  /** Whether a block came last: text after it starts on a paragraph of its own. */
  #afterBlock = false;
  #ended = false;
  #wake: (() => void) | undefined;

  get text(): string {
    return this.#text;
  }

  /** Text of the model's, as it streams. */
  append(text: string): void {
    if (!text) return;
    this.#add(this.#afterBlock ? `\n\n${text}` : text);
    this.#afterBlock = false;
  }

  /** A block of its own (a widget's text, a link, a question), between blank lines. */
  block(text: string): void {
    const before = this.#text;
    this.#add(
      `${before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n'}${text}`,
    );
    this.#afterBlock = true;
  }

  #add(text: string): void {
    this.#text += text;
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /**
   * The text in pieces as it comes. A reader slower than the model gets what piled up as one piece: what waits
   * for it is the turn's text, never a queue of events.
   */
  async *pieces(): AsyncGenerator<string> {
    let read = 0;
    for (;;) {
      if (read < this.#text.length) {
        const piece = this.#text.slice(read);
        read = this.#text.length;
        yield piece;
      } else if (this.#ended) return;
      else
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      this.#wake = undefined;
    }
  }
}

export type TurnUsage = Pick<
  PromptUsage,
  'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'reasoningTokens' | 'totalTokens'
>;

export type TurnEnd = {
  /** The prompt's state when the turn ended (`waiting_for_approval`: the text ends with the question). */
  state: Prompt['state'];
  finish: 'stop' | 'length' | 'content_filter';
  /** Tokens the model calls of this turn used (none when it made none). */
  usage: TurnUsage | undefined;
  /** Set when the prompt failed: why. */
  failure?: string;
};

export type Turn = {
  promptId: string;
  conversationId: string;
  feed: TextFeed;
  /** Resolves once the prompt's loop stopped (and the feed ended); never rejects. */
  done: Promise<TurnEnd>;
};

export type TurnRequest = {
  userId: string;
  conversationId: string;
  input: string;
  model: ModelClass;
  /** Which protocol sent it, recorded on a prompt it starts (`metadata.openai`). */
  via: 'chat.completions' | 'responses';
  /** The server's origin as the client reached it, for links. */
  origin: string;
};

/** Starts what the user's message asks for; throws (before anything runs) what `start` or `decide` throw. */
export async function beginTurn(platform: Platform, request: TurnRequest): Promise<Turn> {
  const { userId, conversationId, input, model } = request;
  const links: Links = { origin: request.origin, conversationId };
  const latest = await latestPrompt(platform, conversationId, userId);
  const found = latest && (await waitingBelow(platform, latest, userId));
  if (latest && found) {
    const decision = decisionOf(input);
    if (!decision) return keepAsSteering(platform, request, latest, found, links);
    const decide = () =>
      platform.decide(found.waiting.id, { userId, ...decisionFor(found.waiting, decision) });
    // A decision below the conversation's prompt (a sub-agent's call): the turn follows the top prompt.
    return follow(platform, userId, latest, links, () =>
      found.below.length === 0 ? decide() : decideBelow(platform, latest, userId, decide),
    );
  }
  const promptId = newId('prm');
  return follow(platform, userId, { id: promptId, conversationId, output: [], usage: undefined }, links, () =>
    platform.start({ conversationId, userId, input, model, promptId, metadata: { openai: request.via } }),
  );
}

/** The conversation's latest prompt (the only one that can wait: a waiting prompt keeps the conversation busy). */
export async function latestPrompt(platform: Platform, conversationId: string, userId: string) {
  const { promptIds } = await platform.conversations.get(conversationId, userId);
  const id = promptIds.at(-1);
  return id === undefined ? undefined : platform.getPrompt(id, userId);
}

export function decisionFor(waiting: Waiting, decision: 'approve' | 'reject') {
  if (waiting.type === 'tool') return { approve: decision === 'approve' };
  if (decision === 'reject') return { choice: 'stop' as const };
  const budgets = doubledBudget(waiting);
  return { choice: 'continue' as const, ...(budgets && { budgets }) };
}

/**
 * A message that is not a decision while a call waits: sent as steering (the model reads it once the call is
 * decided and the prompt goes on), and the answer says so, asking again what waits. Nothing is dropped or
 * run unasked.
 */
async function keepAsSteering(
  platform: Platform,
  request: TurnRequest,
  prompt: Prompt,
  waiting: WaitingBelow,
  links: Links,
): Promise<Turn> {
  const { conversationId, userId, input } = request;
  await platform.messages.send({ conversationId, userId, input, mode: 'steer' });
  const feed = new TextFeed();
  feed.append('Your message is kept: the model reads it once this is decided.');
  feed.block(waitingText(waiting.waiting, links, waiting.below));
  feed.end();
  return {
    promptId: prompt.id,
    conversationId,
    feed,
    done: Promise.resolve({ state: prompt.state, finish: 'stop', usage: undefined }),
  };
}

type Before = Pick<Prompt, 'id' | 'conversationId' | 'output'> & { usage: PromptUsage | undefined };

/**
 * Follows the prompt's events from before `begin` starts or resumes it, so that nothing it does is missed:
 * its text as the model streams it, what its tools emit, then how it stopped.
 */
async function follow(
  platform: Platform,
  userId: string,
  before: Before,
  links: Links,
  begin: () => Promise<PromptRun>,
): Promise<Turn> {
  const feed = new TextFeed();
  const seen = new Set(before.output.map((output) => output.id));
  const streamed = new Set<string>();
  const unsubscribe = platform.events.subscribe({ promptId: before.id }, (event) => {
    if (event.type === 'prompt.text-delta') {
      streamed.add(event.outputId);
      feed.append(event.delta);
    } else if (event.type === 'prompt.output' && !seen.has(event.output.id)) {
      seen.add(event.output.id);
      const { output } = event;
      // Text that was not streamed (a plugin's answer in the model's place) is sent whole.
      if (output.type === 'text' && !streamed.has(output.id)) feed.append(output.text);
      const emitted = emittedText(output, links);
      if (emitted) feed.block(emitted);
    }
  });
  let run: PromptRun;
  try {
    run = await begin();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  const done = run.done
    .then(async (prompt) => ending(prompt, before, feed, links, await waitingBelow(platform, prompt, userId)))
    .catch((error: unknown) => ({
      state: 'failed' as const,
      finish: 'stop' as const,
      usage: undefined,
      failure: error instanceof Error ? error.message : 'The prompt failed.',
    }))
    .finally(() => {
      unsubscribe();
      feed.end();
    });
  return { promptId: before.id, conversationId: before.conversationId, feed, done };
}

/** How the turn ends: the question when the prompt waits, a note when it was cancelled, the failure. */
function ending(
  prompt: Prompt,
  before: Before,
  feed: TextFeed,
  links: Links,
  waiting: WaitingBelow | undefined,
): TurnEnd {
  const usage = usageSince(prompt.usage, before.usage);
  if (waiting) feed.block(waitingText(waiting.waiting, links, waiting.below));
  if (prompt.state === 'cancelled') feed.block('_The prompt was cancelled._');
  if (prompt.state === 'failed') {
    const failure = prompt.stopReason?.message ?? 'The prompt failed.';
    return { state: prompt.state, finish: 'stop', usage, failure };
  }
  const code = prompt.stopReason?.code;
  const finish =
    code === 'max_output_tokens' ? 'length' : code === 'content_filter' ? 'content_filter' : 'stop';
  return { state: prompt.state, finish, usage };
}

/** The tokens used since `before` (a resumed prompt's usage counts its earlier runs too). */
export function usageSince(after: PromptUsage, before: PromptUsage | undefined): TurnUsage | undefined {
  const calls = after.modelCalls - (before?.modelCalls ?? 0);
  if (calls <= 0) return undefined;
  const minus = (key: keyof TurnUsage) => after[key] - (before?.[key] ?? 0);
  return {
    inputTokens: minus('inputTokens'),
    outputTokens: minus('outputTokens'),
    cachedInputTokens: minus('cachedInputTokens'),
    reasoningTokens: minus('reasoningTokens'),
    totalTokens: minus('totalTokens'),
  };
}
