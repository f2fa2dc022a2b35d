import { Conversation, PromptSchema } from '@tessera/core';
import { z } from 'zod';

export const ErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .meta({ id: 'Error', description: 'Every error: a stable code and a message.' });

export const ConversationSchema = Conversation.meta({ id: 'Conversation' });
export const PromptBody = PromptSchema.meta({ id: 'Prompt' });

/**
 * The one form of every id in a path or a query: what core's `newId()` makes (`conv_V1StGXR8Z5jdHi6B`: a
 * prefix, `_` and nanoid's URL-safe letters) and what core accepts as a client-chosen prompt id. Anything
 * else (a NUL byte, a space, a dot) is refused here with a 400, before it reaches a store.
 */
export const Id = z.string().regex(/^[\w-]{1,100}$/, 'an id is 1-100 of A-Z, a-z, 0-9, _ and -');
export const IdParam = z.object({ id: Id });
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque (the store's own form): only printable ASCII is let through. */
  cursor: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'use the nextCursor of the previous page')
    .optional(),
});

export const CreateConversation = z.object({ title: z.string().max(200).optional() }).strict();
export const ForkConversation = z
  .object({
    promptId: Id.meta({
      description:
        'The prompt of the conversation to branch at: the fork shares the prompts before it (never it, nor those after).',
    }),
    title: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export const RenameConversation = z.object({ title: z.string().trim().min(1).max(200) }).strict();
/** An id the client chooses for a send, so that a retried send never starts a second prompt. */
export const ClientPromptId = Id.meta({
  description:
    'Optional id of this send, chosen by the client. Sending again with the same id (a retry after a dropped connection) answers with the prompt already started instead of starting another. Ids are per user: the prompt gets an id of its own, derived from your user and this id (the `prompt.id` of the answer).',
});
/** What the user writes to the model; its bound is the server's `limits.maxInputChars` (a 413 past it). */
export const Input = z.string().min(1).meta({
  description:
    "The user's text for the model: at most `limits.maxInputChars` characters (UTF-16 code units; 100,000 unless configured), else a 413 `input_too_large`.",
});
/** An IANA time zone this runtime knows, e.g. what the browser's `Intl.DateTimeFormat().resolvedOptions()` says. */
const isTimeZone = (name: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};
export const TimeZone = z
  .string()
  .max(100)
  .refine(isTimeZone, { message: "an IANA time zone such as 'Europe/Paris'" })
  .meta({
    description:
      "The user's IANA time zone (e.g. `Europe/Paris`): the model is told the user's local time, and schedules it creates in this prompt run in this zone unless they name another.",
    example: 'Europe/Paris',
  });
export const ModelChoice = z.enum(['normal', 'high']).default('normal');
export const SendPrompt = z
  .object({ input: Input, model: ModelChoice, id: ClientPromptId.optional(), timeZone: TimeZone.optional() })
  .strict();
const FORM_FIELDS = ['input', 'files', 'model', 'id', 'timeZone'];
/** The same as multipart/form-data, with the files the user attached (field `files`, repeated): text, files or both. */
export const SendPromptWithFiles = z
  .strictObject(
    {
      input: Input.optional(),
      model: ModelChoice,
      id: ClientPromptId.optional(),
      timeZone: TimeZone.optional(),
      files: z.any().optional().meta({ description: 'One or more files', format: 'binary' }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}: the fields are ${FORM_FIELDS.map((f) => `\`${f}\``).join(', ')} (\`files\` once per file).`
          : undefined,
    },
  )
  .refine((fields) => fields.input !== undefined || fields.files !== undefined, {
    message: 'A prompt needs input text (`input`) or files (`files`), or both.',
  });
export const RejectBody = z.object({ reason: z.string().max(2_000).optional() }).strict();

export const ConversationPage = z.object({
  items: z.array(ConversationSchema),
  nextCursor: z.string().optional(),
});
export const ConversationWithPrompts = z.object({
  conversation: ConversationSchema,
  prompts: z.array(PromptBody),
});
export const Accepted = z.object({ prompt: PromptBody });
export const ServerInfo = z.object({
  userId: z.string(),
  model: z.object({ id: z.string(), label: z.string(), demo: z.boolean() }),
  plugins: z.array(z.string()).meta({
    description:
      'The ids of the plugins the server runs (e.g. "triggers", "files"): a client shows what is there.',
  }),
  limits: z.object({
    maxUploadBytes: z.number().int().meta({
      description:
        'The largest body of a prompt sent with files (`limits.maxUploadBytes`): larger is a 413, so a client refuses such a file when it is chosen.',
    }),
  }),
});

export const ApprovalPathStep = z
  .object({
    conversationId: z.string(),
    promptId: z.string(),
    toolCallId: z.string().optional().meta({
      description:
        "The call of this prompt the path goes through: the one that started the next step's prompt, or on an approval's last step the waiting call itself. Absent when code started the next prompt on this one's behalf, and on a pause's last step.",
    }),
    toolId: z.string().optional().meta({ description: "That call's tool, e.g. `agent.researcher`." }),
    agent: z.string().optional().meta({
      description: "The agent this prompt runs as (its `metadata.agent`); absent on the user's own prompt.",
    }),
    title: z.string().optional().meta({ description: "The prompt's conversation's title, when it has one." }),
  })
  .meta({
    id: 'ApprovalPathStep',
    description:
      'One prompt on the way from your prompt down to a waiting call, and the call it goes through.',
  });

export const PendingApproval = z
  .object({
    toolCallId: z.string(),
    promptId: z.string(),
    conversationId: z.string(),
    toolId: z.string(),
    input: z.unknown(),
    reason: z.string(),
    createdAt: z.string(),
    startedAt: z.string().optional().meta({
      description:
        'Present when the call started and then asked to wait (a suspended call, e.g. an agent waiting on its sub-agent): there is nothing to approve before it runs; approving runs it again, which goes on once what it waits for is done.',
    }),
    waitsOn: z.object({ conversationId: z.string(), promptId: z.string() }).optional().meta({
      description:
        "On a suspended call: the prompt it started and waits on (a sub-agent's, whose own waiting call is listed too), linked back to this call by its `metadata.parent`. Decide that prompt's call, and this one goes on by itself.",
    }),
    path: z.array(ApprovalPathStep).min(1).meta({
      description:
        "Where the call is, from the top: your prompt, each sub-agent's prompt started by a call of the one above, down to this call's own prompt (the last step, whose `toolCallId` is this call). One step for a call of your own prompt. At most 8 steps: a longer chain starts at the eighth prompt above the call; a link to a prompt that is missing or not yours ends the path there.",
    }),
  })
  .meta({ id: 'PendingApproval' });
/** Where the next page of a waiting list starts; absent on the last page. */
export const WaitingPageCursor = z.string().optional().meta({
  description: 'Pass as `cursor` for the next page; absent on the last one.',
});
export const PendingApprovals = z.object({ items: z.array(PendingApproval), nextCursor: WaitingPageCursor });
