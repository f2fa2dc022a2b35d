import { CONTEXT_ORDER, createTool, DefinitionError, definePlugin, type Plugin } from '@tessera/core';
import { z } from 'zod';
import { NewBlueprint } from './blueprint.ts';
import {
  BlueprintService,
  BlueprintServiceToken,
  blueprintService,
  DEFAULT_MAX_BLUEPRINTS_PER_USER,
} from './blueprint-service.ts';
import { searchTerms } from './search-terms.ts';

const Match = z.object({ id: z.string(), title: z.string(), summary: z.string() });
export const BlueprintsState = z
  .object({
    /**
     * The last automatic search: what it read of the input (its terms, space-separated: bounded however long
     * the input) and what it found, so later rounds do not search again. A cache: one of an older shape (which
     * kept the whole input) is dropped.
     */
    lastSearch: z
      .object({ query: z.string(), matches: z.array(Match) })
      .optional()
      .catch(undefined),
  })
  .default({});
export type BlueprintsState = z.output<typeof BlueprintsState>;

export type BlueprintsOptions = {
  /** BM25 score a blueprint needs to be put into context (default 6; tune on your data). */
  minScore?: number;
  /** How many relevant blueprints go into context at most (default 3). */
  maxInContext?: number;
  /**
   * Blueprints one user may keep (default 200, `DEFAULT_MAX_BLUEPRINTS_PER_USER`): saving one more fails with
   * `too_many_blueprints` until they delete one. The app's `shared` blueprints are not counted.
   */
  maxBlueprintsPerUser?: number;
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
 * A search reads the input within `SEARCH_LIMITS`, so a prompt's cost here does not grow with its input,
 * and looks only among the user's (at most `maxBlueprintsPerUser`) and the shared blueprints.
 */
export function blueprintsPlugin(options: BlueprintsOptions = {}): Plugin<BlueprintsState> {
  const minScore = options.minScore ?? 6;
  const maxInContext = options.maxInContext ?? 3;
  const { maxBlueprintsPerUser = DEFAULT_MAX_BLUEPRINTS_PER_USER } = options;
  if (!Number.isInteger(maxBlueprintsPerUser) || maxBlueprintsPerUser < 1) {
    throw new DefinitionError(`Plugin 'blueprints': maxBlueprintsPerUser must be a positive integer.`);
  }
  return definePlugin({
    id: 'blueprints',
    state: BlueprintsState,
    tools: [getTool, searchTool, saveTool, deleteTool],
    services: (container) => {
      if (!container.isRegistered(BlueprintServiceToken, true)) {
        container.register(BlueprintServiceToken, {
          useValue: new BlueprintService(container, { maxBlueprintsPerUser }),
        });
      }
    },
    prepare: async ({ prompt, state, context, userId, services }) => {
      // What a search reads of the input, within SEARCH_LIMITS: the work of every round is bounded by it,
      // not by the input, and so is what the conversation's state keeps.
      const query = searchTerms(prompt.input ?? '').join(' ');
      if (!query) return; // a prompt the system started, or nothing to search for
      const last = state.get().lastSearch;
      let matches = last?.query === query ? last.matches : undefined;
      if (!matches) {
        const found = await blueprintService(services).search(userId, query, {
          limit: maxInContext,
          minScore,
        });
        matches = found.map(({ id, title, summary }) => ({ id, title, summary }));
        await state.set({ lastSearch: { query, matches } });
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
