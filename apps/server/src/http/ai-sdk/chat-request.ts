import { ModelClass } from '@tessera/core';
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { checkInput } from '../input-limit.ts';

/**
 * The body `DefaultChatTransport` (the AI SDK's `useChat`) posts: the chat's id, its whole message list, and
 * why it sends. Only what is new is read: the last message, the user's text, or the assistant's message
 * carrying the user's answers to approval requests. The earlier messages are the client's copy of the record,
 * never written back to it. Parts are checked only as far as they are read; any others pass.
 */

const Part = z.looseObject({ type: z.string().max(200) });

const Message = z.looseObject({
  id: z.string().max(200),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(Part),
});

export const ChatRequest = z
  .looseObject({
    id: z.string().min(1).max(200).meta({
      description:
        "The chat's id (`useChat`'s `id`, any string the client chose): your chat of that id is one Tessera conversation. An id of one of your conversations continues it.",
    }),
    messages: z.array(Message).min(1),
    trigger: z.enum(['submit-message', 'regenerate-message']),
    messageId: z.string().max(200).optional(),
    model: ModelClass.optional().meta({
      description: "The model class (`normal` or `high`): send it in the transport's `body`.",
    }),
  })
  .meta({ id: 'AiSdkChatRequest', description: "The body the AI SDK's `DefaultChatTransport` sends." });
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The client's answer to one approval request (`addToolApprovalResponse`). */
export type ApprovalResponse = { approvalId: string; approved: boolean; reason?: string };

/** What a request asks: run the user's new message, or decide what waits. */
export type ChatAsk =
  | { kind: 'message'; input: string }
  | { kind: 'approvals'; responses: ApprovalResponse[] };

const Responded = z.object({
  state: z.literal('approval-responded'),
  approval: z.object({
    id: z.string().max(200),
    approved: z.boolean(),
    reason: z.string().optional(),
  }),
});

const isToolPart = (type: string) => type === 'dynamic-tool' || type.startsWith('tool-');

const invalid = (message: string) => new HttpError(400, 'invalid_request', message);

export function readChatRequest(request: ChatRequest, maxInputChars: number): ChatAsk {
  if (request.trigger === 'regenerate-message')
    throw invalid(
      "Regenerating is not supported: a Tessera conversation's record is never rewritten. Send a new message instead.",
    );
  const last = request.messages.at(-1)!;
  if (last.role === 'user') return { kind: 'message', input: userText(last.parts, maxInputChars) };
  if (last.role === 'assistant') {
    const responses = approvalResponses(last.parts, maxInputChars);
    if (responses.length > 0) return { kind: 'approvals', responses };
    throw invalid(
      "The last message is the assistant's and answers no approval request: send the user's new message last.",
    );
  }
  throw invalid("The last message must be the user's new message (or the assistant's, answering approvals).");
}

/** The new message's text (its text parts, joined); files and other content are refused. */
function userText(parts: readonly z.infer<typeof Part>[], maxInputChars: number): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'file')
      throw invalid('Only text is supported in the new message (no files: upload them in Tessera).');
    // step-start, data-* and other parts carry nothing for the model.
  }
  const input = texts.join('\n');
  checkInput(input, maxInputChars, 'The new message');
  if (input.trim() === '') throw invalid('The new message has no text.');
  return input;
}

function approvalResponses(
  parts: readonly z.infer<typeof Part>[],
  maxInputChars: number,
): ApprovalResponse[] {
  const responses: ApprovalResponse[] = [];
  for (const part of parts) {
    if (!isToolPart(part.type) || part.state !== 'approval-responded') continue;
    const parsed = Responded.safeParse(part);
    if (!parsed.success)
      throw invalid(`A tool part answering an approval is malformed: ${z.prettifyError(parsed.error)}`);
    const { id, approved, reason } = parsed.data.approval;
    checkInput(reason, maxInputChars, 'The reason');
    responses.push({ approvalId: id, approved, ...(reason?.trim() && { reason }) });
  }
  return responses;
}
