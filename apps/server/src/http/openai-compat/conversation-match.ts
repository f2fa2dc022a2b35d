import { createHash } from 'node:crypto';
import { NotFoundError, type Platform } from '@tessera/core';
import { titleFrom } from '../conversation-title.ts';
import { HttpError } from '../errors.ts';
import { Id } from '../schemas.ts';
import type { ContentValue } from './schemas.ts';

/**
 * Which conversation an OpenAI client's request continues. Chat Completions is stateless (the client sends
 * the whole conversation each time) and so may be Responses: after each answer the server remembers, for
 * the user, a hash of the transcript as the client now has it (the user and assistant messages' text); the
 * next request's messages before its new one are looked up by that hash, so a match costs one read whatever
 * the conversation's length, and only the user's own transcripts can match. Only the new message is taken
 * from the client: the earlier ones name the conversation, never rewrite its record.
 */

/** The header that names the conversation explicitly; the server answers with it too. */
export const CONVERSATION_HEADER = 'x-tessera-conversation';

/** A message of the transcript as matched: who said it and its text. */
export type TranscriptMessage = { role: 'user' | 'assistant'; text: string };

/** A message as the protocols send it (Chat Completions' messages, Responses' input items). */
export type ClientMessage = { type?: string; role?: string; content?: ContentValue };

const NAMESPACE = 'openai-compat.transcripts';
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/** A content value's text, or undefined when part of it is not text (an image, a file, audio). */
function textOf(content: ContentValue): string | undefined {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) {
    if (!TEXT_PARTS.has(part.type) || typeof part.text !== 'string') return undefined;
    texts.push(part.text);
  }
  return texts.join('\n');
}

const isMessage = (message: ClientMessage) => message.type === undefined || message.type === 'message';

/**
 * The new input (the last message: the user's, text only) and the transcript before it. `field` names the
 * request's list in errors.
 */
export function splitMessages(
  messages: readonly ClientMessage[],
  field: string,
): { input: string; prior: TranscriptMessage[] } {
  const last = messages.at(-1);
  if (!last || !isMessage(last) || last.role !== 'user')
    throw new HttpError(
      400,
      'invalid_request',
      `The last item of \`${field}\` must be the user's new message.`,
    );
  const input = textOf(last.content);
  if (input === undefined)
    throw new HttpError(
      400,
      'invalid_request',
      'Only text is supported in the new message (no images, files or audio).',
    );
  if (input.trim() === '') throw new HttpError(400, 'invalid_request', 'The new message is empty.');
  const prior: TranscriptMessage[] = [];
  for (const message of messages.slice(0, -1)) {
    if (!isMessage(message) || (message.role !== 'user' && message.role !== 'assistant')) continue;
    prior.push({ role: message.role, text: textOf(message.content) ?? '[not text]' });
  }
  return { input, prior };
}

/** The key of a user's transcript: a hash of the user and each message's role and trimmed text. */
function transcriptKey(userId: string, transcript: readonly TranscriptMessage[]): string {
  const hash = createHash('sha256').update(JSON.stringify(userId));
  for (const { role, text } of transcript) hash.update(`\n${role}:${JSON.stringify(text.trim())}`);
  return hash.digest('base64url');
}

/** Remembers the transcript as the client has it after this answer: its next request continues there. */
export async function rememberTranscript(
  platform: Platform,
  userId: string,
  transcript: readonly TranscriptMessage[],
  conversationId: string,
): Promise<void> {
  await platform.store.records.put(NAMESPACE, transcriptKey(userId, transcript), { conversationId });
}

/** The user's conversation whose remembered transcript is `prior`, if it still exists. */
async function matchTranscript(
  platform: Platform,
  userId: string,
  prior: readonly TranscriptMessage[],
): Promise<string | undefined> {
  if (prior.length === 0) return undefined;
  const record = await platform.store.records.get<{ conversationId?: unknown }>(
    NAMESPACE,
    transcriptKey(userId, prior),
  );
  const id = record?.value.conversationId;
  if (typeof id !== 'string') return undefined;
  return (await ownConversation(platform, id, userId)) ? id : undefined;
}

export async function ownConversation(platform: Platform, id: string, userId: string): Promise<boolean> {
  try {
    await platform.conversations.get(id, userId);
    return true;
  } catch (error) {
    if (NotFoundError.is(error)) return false;
    throw error;
  }
}

/** A response id as the Responses route makes them: `resp_<prompt id>.<suffix>`; a bare prompt id is taken too. */
const RESPONSE_ID = /^resp_([\w-]{1,100})\.[\w-]{1,40}$/;
export const responseIdOf = (promptId: string, suffix: string) => `resp_${promptId}.${suffix}`;

/** The prompt a client's `previous_response_id` names (any string: anything else is a 404). */
function promptOfResponse(responseId: string): string | undefined {
  const match = RESPONSE_ID.exec(responseId);
  if (match) return match[1];
  return Id.safeParse(responseId).success ? responseId : undefined;
}

export type ConversationChoice = {
  userId: string;
  /** The `X-Tessera-Conversation` header's value, if sent. */
  header: string | undefined;
  previousResponseId?: string | null | undefined;
  prior: readonly TranscriptMessage[];
  input: string;
};

/**
 * The conversation of the request: the one the header names, else the one of `previous_response_id`, else
 * the one whose transcript the earlier messages match, else a new one. A header or response id that is not
 * the user's is a 404, whoever's it is.
 */
export async function chooseConversation(platform: Platform, choice: ConversationChoice): Promise<string> {
  const { userId, header, previousResponseId, prior, input } = choice;
  if (header !== undefined) {
    if (!Id.safeParse(header).success || !(await ownConversation(platform, header, userId)))
      throw new NotFoundError(`No conversation ${header.slice(0, 100)} (${CONVERSATION_HEADER}).`);
    return header;
  }
  if (previousResponseId) {
    const promptId = promptOfResponse(previousResponseId);
    if (promptId === undefined) throw new NotFoundError(`No response ${previousResponseId.slice(0, 100)}.`);
    return (await platform.getPrompt(promptId, userId)).conversationId;
  }
  const matched = await matchTranscript(platform, userId, prior);
  if (matched) return matched;
  const title = titleFrom(input);
  return (await platform.conversations.create({ userId, ...(title && { title }) })).id;
}
