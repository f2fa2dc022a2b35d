import { z } from 'zod';

/**
 * Where a fork branched off: it shares the prompts of `conversationId` before `promptId` (by reference) and
 * has its own after them. Branches group by `rootId`, the first conversation of the lineage (a fork of a
 * fork has its source's root), which stays the group's key after that conversation is deleted.
 */
export const ForkPoint = z.object({
  conversationId: z.string(),
  promptId: z.string(),
  rootId: z.string(),
});
export type ForkPoint = z.infer<typeof ForkPoint>;

export const Conversation = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string().optional(),
  /** The conversation's prompts, oldest first (references, not copies). */
  promptIds: z.array(z.string()),
  /** Per-plugin state, keyed by plugin id; each plugin validates its own entry with its schema. */
  pluginState: z.record(z.string(), z.unknown()),
  /** Set on a fork: what it branched off (see `ForkPoint`). */
  forkOf: ForkPoint.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof Conversation>;
