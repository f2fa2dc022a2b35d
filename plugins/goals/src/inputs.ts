import { TesseraError } from '@tessera/core';
import { z } from 'zod';
import {
  type CreateGoalInput,
  GOAL_STATES,
  type GoalBudgets,
  type GoalChanges,
  type GoalListOptions,
} from './types.ts';

export const MAX_OBJECTIVE = 4_000;
export const MAX_CRITERIA = 20;
export const MAX_DESCRIPTION = 1_000;
export const MAX_NOTE = 2_000;
export const MAX_REASON = 2_000;
export const MAX_PLAN = 8_000;

/** The largest budgets a goal may have: generous, but finite. */
export const BUDGET_MAXIMA = {
  modelCalls: 100_000,
  totalTokens: 10_000_000_000,
  cost: 1_000_000,
  prompts: 10_000,
  wallMs: 90 * 24 * 60 * 60_000,
} as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const count = (max: number) => z.number().int().positive().max(max);

export const TOOL_ID = /^[A-Za-z0-9_.-]{1,128}$/;

export const Verify = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('check'), toolId: z.string().regex(TOOL_ID, 'a tool id') }).strict(),
  z.object({ kind: z.literal('human') }).strict(),
]);

export const CriterionInputSchema = z
  .object({ description: text(MAX_DESCRIPTION), verify: Verify.optional() })
  .strict();

export const Budgets = z
  .object({
    modelCalls: count(BUDGET_MAXIMA.modelCalls).optional(),
    totalTokens: count(BUDGET_MAXIMA.totalTokens).optional(),
    cost: z.number().positive().max(BUDGET_MAXIMA.cost).optional(),
    prompts: count(BUDGET_MAXIMA.prompts).optional(),
    wallMs: count(BUDGET_MAXIMA.wallMs).optional(),
  })
  .strict();

const StallLimit = z.number().int().min(1).max(20);
const Criteria = z.array(CriterionInputSchema).min(1).max(MAX_CRITERIA);

export const CreateGoalSchema = z
  .object({
    objective: text(MAX_OBJECTIVE),
    criteria: Criteria,
    budgets: Budgets.optional(),
    stallLimit: StallLimit.optional(),
    start: z.boolean().optional(),
  })
  .strict();

export const GoalChangesSchema = z
  .object({
    objective: text(MAX_OBJECTIVE).optional(),
    criteria: Criteria.optional(),
    budgets: Budgets.optional(),
    stallLimit: StallLimit.optional(),
  })
  .strict();

export const GoalStateSchema = z.enum(GOAL_STATES);

export const ListOptionsSchema = z
  .object({
    limit: z.number().int().min(1).max(200).optional(),
    cursor: z.string().min(1).max(1_000).optional(),
    state: GoalStateSchema.optional(),
  })
  .strict();

/** `input` validated by `schema`, or a `TesseraError` `invalid_input` naming the first problem. */
export function parse<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new TesseraError('invalid_input', `Invalid ${what}: ${z.prettifyError(parsed.error)}`);
}

/** An optional free text (a reason, a note), trimmed and bounded; empty is none. */
export function optionalText(value: unknown, max: number, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new TesseraError('invalid_input', `Invalid ${what}: expected a string.`);
  const trimmed = value.trim();
  if (trimmed.length > max) {
    throw new TesseraError(
      'invalid_input',
      `Invalid ${what}: at most ${max.toLocaleString('en-US')} characters.`,
    );
  }
  return trimmed || undefined;
}

export const parseCreate = (input: unknown): CreateGoalInput => parse(CreateGoalSchema, input, 'goal');
export const parseChanges = (input: unknown): GoalChanges => parse(GoalChangesSchema, input, 'goal changes');
export const parseBudgets = (input: unknown): GoalBudgets => parse(Budgets, input, 'budgets');
export const parseList = (input: unknown): GoalListOptions => parse(ListOptionsSchema, input ?? {}, 'page');
