import { z } from 'zod';

/** What the agent (with the user's approval) or the app saves: a procedure that worked before. */
export const NewBlueprint = z.object({
  title: z
    .string()
    .trim()
    .min(3)
    .max(120)
    .describe('A short name for the procedure, e.g. "Publish the monthly newsletter".'),
  summary: z
    .string()
    .trim()
    .min(3)
    .max(500)
    .describe('One or two sentences: what it achieves and when to use it.'),
  steps: z.string().trim().min(3).max(20_000).describe('The steps, as Markdown.'),
  tags: z.array(z.string().trim().min(1).max(40)).max(10).default([]),
});
export type NewBlueprint = z.output<typeof NewBlueprint>;

export const Blueprint = NewBlueprint.extend({
  id: z.string(),
  /** The user it belongs to, or `shared` for every user of the app. */
  owner: z.string(),
  usageCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Blueprint = z.output<typeof Blueprint>;

export const SHARED = 'shared';

/** What a search returns, and what goes into context. */
export type BlueprintMatch = { id: string; title: string; summary: string; score: number };
