import { ConversationStates } from '../loop/plugin-state.ts';
import { prepareRound } from '../loop/prepare-round.ts';
import type { Prompt } from '../model/prompt.ts';
import type { OfferedTool } from '../plugins/define-plugin.ts';
import type { PlatformContext } from './context.ts';
import { newPrompt } from './prompt-runs.ts';

/**
 * `platform.offeredTools()`: the round the loop would prepare first for the conversation's next prompt (a draft
 * prompt, never stored or run), with every plugin's `prepare()`, and the tools of it.
 */
export async function offeredTools(
  ctx: PlatformContext,
  conversationId: string,
  userId: string,
  options: { metadata?: Record<string, unknown>; signal?: AbortSignal } = {},
): Promise<ReadonlyMap<string, OfferedTool>> {
  const conversation = await ctx.conversationOf(conversationId, userId);
  const history = (await ctx.store.prompts.listByConversation(conversationId)) as Prompt[];
  const states = new ConversationStates(ctx.store, conversation);
  await states.migrate(ctx.runtime.plugins);
  const prompt = newPrompt(ctx, { conversationId, userId, metadata: options.metadata });
  const signal = options.signal ?? new AbortController().signal;
  const round = await prepareRound(ctx.runtime, states, { prompt, history, round: 0, signal });
  return round.tools;
}
