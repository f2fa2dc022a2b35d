import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { defineOutput, type OutputOf, type ToolEmitter } from '@tessera/core';
import { z } from 'zod';

/**
 * The progress an MCP server reports for a call (`notifications/progress`): one output per call, right after
 * the call's own, updated in place as the server reports, for people to watch. The model does not read it.
 */
export const mcpProgress = defineOutput({
  type: 'mcp.progress',
  fields: {
    server: z.string(),
    tool: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
    /** Set when the call ended. */
    done: z.boolean(),
  },
  project: 'skip',
});

export type McpProgressOutput = OutputOf<typeof mcpProgress>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    'mcp.progress': McpProgressOutput;
  }
}

/**
 * Reports a call's progress through its emitter: the first report emits the output, later ones update it.
 * Reports that come while a write is under way are folded into one (the latest), so a chatty server costs
 * one write at a time; a failed write never fails the call.
 */
export function progressReporter(emitter: ToolEmitter, names: { server: string; tool: string }) {
  let outputId: string | undefined;
  let latest: Progress | undefined;
  let done = false;
  let writing: Promise<void> = Promise.resolve();
  let queued = false;
  const write = () => {
    if (queued || !latest) return;
    queued = true;
    writing = writing.then(async () => {
      queued = false;
      const { progress, total, message } = latest!;
      const output = {
        type: 'mcp.progress' as const,
        ...names,
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
        done,
      };
      try {
        if (outputId === undefined) outputId = await emitter.emit(output);
        else await emitter.update(outputId, output);
      } catch {
        // Progress is for people to watch; the call's result is what matters.
      }
    });
  };
  return {
    report: (progress: Progress) => {
      latest = progress;
      write();
    },
    /** Marks the progress done (when there was any) and waits for the last write. */
    finish: async () => {
      if (latest) {
        done = true;
        write();
      }
      await writing;
    },
  };
}
