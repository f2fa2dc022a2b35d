import type { Platform } from '@tessera/core';
import type { Context } from 'hono';
import { checkInput } from '../input-limit.ts';
import type { Env } from '../routes/shared.ts';
import {
  type ClientMessage,
  CONVERSATION_HEADER,
  chooseConversation,
  rememberTranscript,
  splitMessages,
} from './conversation-match.ts';
import { modelClassOf } from './models.ts';
import { beginTurn, type Turn, type TurnEnd } from './turn.ts';

export type TurnOptions = {
  model: string;
  messages: readonly ClientMessage[];
  /** The request's field of messages, for errors. */
  field: string;
  previousResponseId?: string | null | undefined;
  via: 'chat.completions' | 'responses';
  maxInputChars: number;
};

export type StartedTurn = Turn & {
  /** Waits for the turn's end and remembers the transcript the client then has (for its next request). */
  finish(): Promise<TurnEnd>;
};

/**
 * What both protocols do with a request: check it (model, new message, its length: each a 4xx before
 * anything is stored), choose its conversation, and start the turn. The answer names the conversation in
 * `X-Tessera-Conversation`.
 */
export async function startTurn(
  c: Context<Env>,
  platform: Platform,
  options: TurnOptions,
): Promise<StartedTurn> {
  const model = modelClassOf(options.model);
  const { input, prior } = splitMessages(options.messages, options.field);
  checkInput(input, options.maxInputChars, 'The new message');
  const userId = c.var.userId;
  const conversationId = await chooseConversation(platform, {
    userId,
    header: c.req.header(CONVERSATION_HEADER),
    previousResponseId: options.previousResponseId,
    prior,
    input,
  });
  const origin = new URL(c.req.url).origin;
  const turn = await beginTurn(platform, { userId, conversationId, input, model, via: options.via, origin });
  c.header(CONVERSATION_HEADER, conversationId);
  return {
    ...turn,
    async finish() {
      const end = await turn.done;
      const transcript = [...prior, { role: 'user' as const, text: input }];
      if (!end.failure) transcript.push({ role: 'assistant', text: turn.feed.text });
      await rememberTranscript(platform, userId, transcript, conversationId);
      return end;
    },
  };
}
