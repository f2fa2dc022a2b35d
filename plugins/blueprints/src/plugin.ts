import { CONTEXT_ORDER, createTool, definePlugin, type Plugin } from '@tessera/core';
import { z } from 'zod';
import { NewBlueprint } from './blueprint.ts';
import { BlueprintService, BlueprintServiceToken, blueprintService } from './blueprint-service.ts';

const Match = z.object({ id: z.string(), title: z.string(), summary: z.string() });
export const BlueprintsState = z
  .object({
    /** The last automatic search: the input it was for and what it found, so later rounds do not search again. */
    lastSearch: z.object({ input: z.string(), matches: z.array(Match) }).optional(),
  })
  .default({});
export type BlueprintsState = z.output<typeof BlueprintsState>;

export type BlueprintsOptions = {
  /** BM25 score a blueprint needs to be put into context (default 6; tune on your data). */
  minScore?: number;
  /** How many relevant blueprints go into context at most (default 3). */
  maxInContext?: number;
};

const getTool = createTool({
  id: 'blueprints.get',
  description: 'Read a blueprint (a procedure that worked before) in full, by id.',
  input: z.object({ id: z.string() }),
  readOnly: true,
  invoke: ({ input, userId, services }) =>
    blueprintService(services).get(userId, input.id, { countUse: true }),
});

const searchTool = createTool({
  id: 'blueprints.search',
  description: 'Search the saved blueprints (procedures that worked before).',
  input: z.object({ query: z.string().min(1).max(500) }),
  readOnly: true,
  invoke: ({ input, userId, services }) =>
    blueprintService(services).search(userId, input.query, { limit: 10 }),
});

const saveTool = createTool({
  id: 'blueprints.save',
  description:
    'Save a procedure that worked as a blueprint, to reuse it later. The user approves what is kept.',
  input: NewBlueprint,
  requireApproval: ({ input }) => ({
    required: true,
    reason: `Remember the blueprint "${input.title}": ${input.summary}`,
  }),
  invoke: async ({ input, userId, services }) => {
    const saved = await blueprintService(services).save(userId, input);
    return { id: saved.id, title: saved.title };
  },
});

const deleteTool = createTool({
  id: 'blueprints.delete',
  description: 'Delete one of the user’s blueprints. The user approves it.',
  input: z.object({ id: z.string() }),
  requireApproval: ({ input }) => ({ required: true, reason: `Delete the blueprint ${input.id}?` }),
  invoke: async ({ input, userId, services }) => {
    await blueprintService(services).delete(userId, input.id);
    return { deleted: input.id };
  },
});

/**
 * Blueprints: procedural memory. Every round, the blueprints relevant to the latest input go into context
 * (searched once per input, cached in the conversation state); tools read, search, save and delete them.
 */
export function blueprintsPlugin(options: BlueprintsOptions = {}): Plugin<BlueprintsState> {
  const minScore = options.minScore ?? 6;
  const maxInContext = options.maxInContext ?? 3;
  return definePlugin({
    id: 'blueprints',
    state: BlueprintsState,
    tools: [getTool, searchTool, saveTool, deleteTool],
    services: (container) => {
      if (!container.isRegistered(BlueprintServiceToken, true)) {
        container.register(BlueprintServiceToken, { useValue: new BlueprintService(container) });
      }
    },
    prepare: async ({ prompt, state, context, userId, services }) => {
      const input = prompt.input?.trim();
      if (!input) return; // a prompt the system started: nothing to search for
      let matches = state.get().lastSearch?.input === input ? state.get().lastSearch?.matches : undefined;
      if (!matches) {
        const found = await blueprintService(services).search(userId, input, {
          limit: maxInContext,
          minScore,
        });
        matches = found.map(({ id, title, summary }) => ({ id, title, summary }));
        await state.set({ lastSearch: { input, matches } });
      }
      if (matches.length === 0) return;
      context.push({
        text: `Relevant blueprints (read one with blueprints.get before following it):\n${matches
          .map((m) => `- ${m.title} — ${m.summary} (${m.id})`)
          .join('\n')}`,
        order: CONTEXT_ORDER.volatile,
      });
    },
  });
}
