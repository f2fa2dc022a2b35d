import { CONTEXT_ORDER, definePlugin, type RecordStore, StoreToken } from '@tessera/core';

export const INSTRUCTIONS_PLUGIN_ID = 'instructions';
/** The plugin's namespace in the record store: one record per user, keyed by the user id. */
const NAMESPACE = 'instructions';
export const MAX_INSTRUCTIONS = 4_000;

export type UserInstructions = { instructions: string };

const keyOf = (userId: string) => encodeURIComponent(userId);

export async function readInstructions(records: RecordStore, userId: string): Promise<UserInstructions> {
  const record = await records.get<UserInstructions>(NAMESPACE, keyOf(userId));
  return { instructions: record?.value.instructions ?? '' };
}

export async function writeInstructions(
  records: RecordStore,
  userId: string,
  instructions: string,
): Promise<UserInstructions> {
  const value = { instructions: instructions.trim() };
  if (value.instructions) await records.put(NAMESPACE, keyOf(userId), value);
  else await records.delete(NAMESPACE, keyOf(userId));
  return value;
}

/**
 * The user's own standing instructions (written in the web UI's settings), in the model's context of every
 * prompt they run. Read each round: a change applies from the next model call, in every process.
 */
export const instructionsPlugin = definePlugin({
  id: INSTRUCTIONS_PLUGIN_ID,
  prepare: async (ctx) => {
    const { instructions } = await readInstructions(ctx.services.resolve(StoreToken).records, ctx.userId);
    if (!instructions) return;
    ctx.context.push({
      text: `The user's standing instructions, from their settings (follow them unless they ask otherwise here):\n${instructions}`,
      // The same from round to round: early in the instructions, for prompt caching.
      order: CONTEXT_ORDER.stable,
    });
  },
});
