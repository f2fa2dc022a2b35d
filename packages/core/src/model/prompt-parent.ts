import { z } from 'zod';

/**
 * The call a prompt runs for, when another prompt started it (a sub-agent's prompt runs for its parent's
 * tool call): whoever starts such a prompt sets it as `metadata.parent`, so any reader of the record (a
 * UI, a CLI, the server's event streams, telemetry) can nest the child under its parent without knowing
 * the plugin that started it. Clients cannot set prompt metadata; plugins and code can.
 */
export const PromptParent = z.object({
  conversationId: z.string().min(1).max(200),
  promptId: z.string().min(1).max(200),
  /** The parent's tool call; absent when code started the prompt on the parent's behalf. */
  toolCallId: z.string().min(1).max(200).optional(),
});
export type PromptParent = z.infer<typeof PromptParent>;

/** The call `prompt` runs for, from its `metadata.parent`; `undefined` for a top-level (or malformed) one. */
export function parentOf(prompt: {
  metadata?: Record<string, unknown> | undefined;
}): PromptParent | undefined {
  const parsed = PromptParent.safeParse(prompt.metadata?.parent);
  return parsed.success ? parsed.data : undefined;
}
