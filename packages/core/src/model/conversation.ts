import { z } from 'zod';

export const Conversation = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string().optional(),
  /** The conversation's prompts, oldest first (references, not copies). */
  promptIds: z.array(z.string()),
  /** Per-plugin state, keyed by plugin id; each plugin validates its own entry with its schema. */
  pluginState: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof Conversation>;
