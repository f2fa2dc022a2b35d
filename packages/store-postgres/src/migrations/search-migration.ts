import type { Migration } from './migrations.ts';

/**
 * Version 6: full-text search (`conversations.search`) over titles, prompt inputs and text outputs, each
 * through a GIN index on its `to_tsvector('simple', …)`. The 'simple' configuration lower-cases words and
 * neither stems nor drops stop words: conversations are in any language, and a configuration for one
 * language would stem another's words wrongly; the store's in-memory twin matches whole words the same way.
 */
export const SEARCH_MIGRATION: Migration = {
  version: 6,
  name: 'full-text search of titles, inputs and text outputs',
  statements: (s) => [
    `CREATE INDEX conversations_search ON ${s}.conversations
      USING gin (to_tsvector('simple', coalesce(title, '')))`,
    `CREATE INDEX prompts_search ON ${s}.prompts USING gin (to_tsvector('simple', coalesce(input, '')))`,
    `CREATE INDEX prompt_outputs_search ON ${s}.prompt_outputs
      USING gin (to_tsvector('simple', coalesce(value->>'text', '')))`,
  ],
};
