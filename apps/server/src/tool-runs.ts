import { type AnyTool, definePlugin, type Prompt } from '@tessera/core';

/**
 * Tool runs: a prompt whose first round is a tool call the user chose (the web UI's tool runner, `POST
 * /api/conversations/{id}/tool-runs`), not the model's. The call is the prompt's first output, recorded before
 * the loop starts and without a result, so the loop processes it as it processes any call without one:
 * validated, decided by the plugins' hooks and permission policies and the tool's `requireApproval` (waiting
 * for approval like any call), run, recorded and published. Then the prompt ends without asking the model:
 * `toolRunsPlugin` skips the model call of a prompt marked as a tool run.
 */

/** The mark on a tool run's `metadata`. */
export const TOOL_RUN = 'toolRun';

export const isToolRun = (prompt: Pick<Prompt, 'metadata'>) => prompt.metadata?.[TOOL_RUN] === true;

/**
 * Ends a tool run once its call has its result, without a model call (recorded as a skipped one). A tool run
 * the user steered (a message sent while it ran) asks the model as any prompt does: the model answers that.
 * Not one of the server's plugins as apps see them (`/api/me`): it comes first in the platform's set.
 */
export const toolRunsPlugin = definePlugin({
  id: 'tessera.tool-runs',
  hooks: {
    beforeModelCall: ({ prompt }) =>
      isToolRun(prompt) && !prompt.output.some((output) => output.type === 'steering')
        ? { skip: { text: '' } }
        : undefined,
  },
});

/** Whether a call of the tool waits for approval: always, never, or depending on its arguments (a function). */
export function approvalOf(tool: AnyTool): 'always' | 'never' | 'depends' {
  const check = tool.requireApproval;
  if (check === undefined) return 'never';
  if (typeof check === 'function') return 'depends';
  return check.required ? 'always' : 'never';
}
