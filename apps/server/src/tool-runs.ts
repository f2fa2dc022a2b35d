import {
  type AnyPlugin,
  type AnyTool,
  createTool,
  definePlugin,
  emptyUsage,
  newId,
  type Platform,
  type Prompt,
} from '@tessera/core';

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

/** A tool the model would be offered, and the plugin that offers it. */
export type OfferedTool = { tool: AnyTool; plugin: AnyPlugin };

/**
 * The tools the model would be offered in the first round of the conversation's next prompt (a prompt with
 * `metadata`), in order, as core prepares a round: each plugin's tools, with what its `prepare()` adds or takes
 * away. Of two tools with one id, the first is kept (core refuses such a round).
 *
 * @throws {NotFoundError} when the conversation is not the user's.
 */
export async function offeredTools(
  platform: Platform,
  scope: { conversationId: string; userId: string; metadata?: Record<string, unknown> },
  signal: AbortSignal,
): Promise<Map<string, OfferedTool>> {
  const { conversationId, userId, metadata } = scope;
  const history = await platform.conversations.prompts(conversationId, userId);
  const at = new Date().toISOString();
  // The prompt the round would be prepared for: not stored, never run.
  const prompt: Prompt = {
    id: newId('prm'),
    conversationId,
    userId,
    model: 'normal',
    visible: true,
    state: 'running',
    output: [],
    usage: emptyUsage(),
    ...(metadata && { metadata }),
    createdAt: at,
    updatedAt: at,
  };
  const offered = new Map<string, OfferedTool>();
  for (const plugin of platform.plugins) {
    const tools: AnyTool[] = [...plugin.tools];
    if (plugin.prepare) {
      await plugin.prepare({
        userId,
        conversationId,
        prompt,
        history,
        round: 0,
        state: await platform.pluginState(conversationId, plugin),
        tools,
        tool: (definition) => createTool({ ...definition, state: plugin.state }),
        context: [],
        services: platform.services,
        signal,
      });
    }
    for (const tool of tools) if (!offered.has(tool.id)) offered.set(tool.id, { tool, plugin });
  }
  return offered;
}

/** Whether a call of the tool waits for approval: always, never, or depending on its arguments (a function). */
export function approvalOf(tool: AnyTool): 'always' | 'never' | 'depends' {
  const check = tool.requireApproval;
  if (check === undefined) return 'never';
  if (typeof check === 'function') return 'depends';
  return check.required ? 'always' : 'never';
}
