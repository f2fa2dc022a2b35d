import { defineOutput, type OutputOf, PromptState, PromptUsage } from '@tessera/core';
import { z } from 'zod';

/**
 * The `agent-run` output: a sub-agent's run, recorded in the parent's prompt right after the call that
 * started it (same `toolCallId`), so the record nests and a UI can link the child. Emitted as the child
 * starts (`state: 'running'`) and updated when the parent stops waiting for it. The model does not read it:
 * it reads the call's result, the child's answer and summary, bounded.
 */
export const agentRunOutput = defineOutput({
  type: 'agent-run',
  fields: {
    /** The agent's name. */
    agent: z.string(),
    /** The child conversation, and the child prompt in it. */
    conversationId: z.string(),
    promptId: z.string(),
    /** The task the parent gave. */
    task: z.string(),
    /** 1 for an agent the user's own prompt called, 2 for one that agent called, ... */
    depth: z.number().int().positive(),
    /** Whether the child conversation is a fork of the parent's (`fork`) or holds only the task (`task`). */
    history: z.enum(['task', 'fork']),
    /** The child prompt's state when last seen; `running` while the parent waits. */
    state: PromptState,
    /** A short account of the run, once it ended. */
    summary: z.string().optional(),
    /** What the child's model calls used, its own sub-agents' included (not added to the parent prompt's usage). */
    usage: PromptUsage.optional(),
  },
  project: 'skip',
});

export type AgentRunOutput = OutputOf<typeof agentRunOutput>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    'agent-run': AgentRunOutput;
  }
}
