import type { Migration } from './migrations.ts';

/**
 * Version 5: one user's prompts in a state, in order (`prompts.listByUserAndState`, what the approval and
 * pause lists read), as one index range however many prompts other users have. On every state rather than
 * partial on the waiting one: the store's statements are prepared once per connection, and a plan made for
 * any `state` parameter could not use an index limited to one state.
 */
export const PROMPTS_BY_USER_MIGRATION: Migration = {
  version: 5,
  name: "one user's prompts in a state, in order",
  statements: (s) => [`CREATE INDEX prompts_by_user_state ON ${s}.prompts (user_id, state, seq)`],
};
