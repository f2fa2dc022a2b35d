import { z } from 'zod';
import {
  ApprovalPathStep,
  Id,
  Input,
  ModelChoice,
  PromptBody,
  TimeZone,
  WaitingPageCursor,
} from './schemas.ts';

/**
 * The HTTP shapes of loop control: messages sent to a busy conversation (steering, follow-ups), approval
 * with edited arguments, and decisions on pauses.
 */

const MessageMode = z.enum(['steer', 'queue']).meta({
  description:
    '`steer`: the running prompt reads the message at its next round boundary (never between a tool call and its result). `queue`: the message runs as the next prompt once the current one ends, in order. On an idle conversation either runs at once.',
});

export const QueuedMessageSchema = z
  .object({
    id: z.string().meta({ description: 'A queued message runs as the prompt with this same id.' }),
    conversationId: z.string(),
    userId: z.string(),
    mode: MessageMode,
    input: z.string(),
    model: z
      .enum(['normal', 'high'])
      .optional()
      .meta({ description: 'The model class of the prompt it runs as.' }),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "The metadata of the prompt it runs as, e.g. the sender's `timeZone`." }),
    createdAt: z.string(),
  })
  .meta({
    id: 'QueuedMessage',
    description:
      'A message waiting for its conversation. It stays in the store (through restarts) until it is delivered or you remove it.',
  });

/** `model` and `timeZone` as a sent prompt's: the prompt a follow-up (or an idle conversation's message) runs as. */
export const SendMessage = z
  .object({
    input: Input,
    mode: MessageMode,
    model: ModelChoice.optional(),
    timeZone: TimeZone.optional(),
  })
  .strict();

export const SentMessage = z.object({
  message: QueuedMessageSchema,
  prompt: PromptBody.optional().meta({
    description: 'Present when the conversation was idle: the prompt the message started at once.',
  }),
});

export const MessageList = z.object({ items: z.array(QueuedMessageSchema) });

export const MessageParams = z.object({ id: Id, messageId: Id });

export const ApproveBody = z
  .object({
    input: z.unknown().meta({
      description:
        "Run the call with these arguments instead of the model's. They are validated by the tool's schema: a mismatch is a 400 and the call still waits. The record keeps both; the model is sent these. As JSON, at most `limits.maxInputChars` characters, else a 413 `input_too_large`.",
    }),
  })
  .partial()
  .strict();

/** What a user who answers a pending call in the tool's place sends: the result, and why (optional). */
export const AnswerBody = z
  .object({
    // nonoptional: a required property of the OpenAPI schema (a bare z.unknown() is listed as optional), and
    // a missing `answer` is a 400 naming it; `null` is an answer.
    answer: z.unknown().nonoptional().meta({
      description:
        "The call's result, in the tool's place: any JSON value (`null` too). The tool does not run; the call's result is `{ type: 'success', output: answer }` and the model is sent it with a note that you gave it. As JSON, at most `limits.maxInputChars` characters (else a 413 `input_too_large`) and nested at most 64 levels (else a 400).",
    }),
    reason: z.string().max(2_000).optional().meta({
      description: "Why, in your words: recorded as the approval's `comment` and read by the model.",
    }),
  })
  .strict();

const Count = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The budgets a client may raise to continue past a budget pause: core's `RAISABLE_BUDGETS`. */
export const BudgetRaise = z
  .object({
    maxRounds: Count,
    maxToolCalls: Count,
    maxTokens: Count,
    maxInputTokens: Count,
    maxOutputTokens: Count,
    maxCost: z.number().positive().max(Number.MAX_SAFE_INTEGER),
    maxConsecutiveToolErrors: Count,
  })
  .partial()
  .strict()
  .meta({
    id: 'BudgetRaise',
    description:
      "Larger limits to continue with, past a budget pause (`source: budget`): the budget it names must be among them, each larger than what the prompt has used (the pause's `budget.used`), else a 400. They hold for the rest of the prompt.",
  });

export const PauseDecisionBody = z
  .object({
    choice: z.enum(['continue', 'stop']).meta({
      description:
        '`continue` runs the next round (a repeated-call check counts afresh from here); `stop` ends the prompt (`stopReason.code: stopped_by_user`).',
    }),
    budgets: BudgetRaise.optional(),
  })
  .strict();

export const ReachedBudget = z
  .object({
    name: z.string().meta({ description: 'The budget, as named in `budgets`, e.g. `maxRounds`.' }),
    limit: z.number(),
    used: z.number().meta({ description: 'What the prompt had used of it when it paused.' }),
  })
  .meta({ id: 'ReachedBudget' });

export const PauseSource = z.enum(['doom_loop', 'plugin', 'budget']).meta({
  description:
    '`doom_loop`: the model repeated the same tool calls; `plugin`: a plugin paused the prompt; `budget`: the prompt reached a budget (`budget`), continue with a larger one or stop.',
});

export const PendingPause = z
  .object({
    pauseId: z.string(),
    promptId: z.string(),
    conversationId: z.string(),
    source: PauseSource,
    plugin: z.string().optional(),
    budget: ReachedBudget.optional(),
    reason: z.string(),
    createdAt: z.string(),
    path: z.array(ApprovalPathStep).min(1).meta({
      description:
        "Where the paused prompt is, from the top: your prompt, each sub-agent's prompt started by a call of the one above, down to the paused prompt (the last step, without a call). One step for your own prompt; at most 8, as an approval's `path`.",
    }),
  })
  .meta({ id: 'PendingPause' });
export const PendingPauses = z.object({ items: z.array(PendingPause), nextCursor: WaitingPageCursor });

export const ToolCallDetail = z
  .object({
    toolCallId: z.string(),
    promptId: z.string(),
    toolId: z.string(),
    input: z.unknown().meta({ description: "The model's arguments." }),
    editedInput: z.unknown().optional().meta({ description: 'The arguments it ran with, when edited.' }),
    result: z
      .object({ type: z.enum(['success', 'error', 'pending']) })
      .loose()
      .optional(),
    inputSchema: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "The JSON Schema of the tool's arguments; absent for a tool a plugin makes per round (edit the JSON as it is).",
    }),
  })
  .meta({ id: 'ToolCallDetail' });
