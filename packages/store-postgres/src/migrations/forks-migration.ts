import type { Migration } from './migrations.ts';

/**
 * Version 7: forks. A fork lists the prompts it shares, by reference, in `shared_prompts` (its own prompts
 * are rows of `prompts` as any conversation's): a fork of a fork lists its source's whole history, so a
 * read never follows a chain. A shared prompt outlives its conversation: `prompts` no longer cascades from
 * `conversations` (the store deletes a conversation's prompts itself, those no history refers to), and
 * `shared_prompts` refers to `prompts` without cascading, so a deletion racing a fork fails rather than take
 * a prompt from the fork's history.
 */
export const FORKS_MIGRATION: Migration = {
  version: 7,
  name: 'forks: shared prompts and where a fork branched',
  statements: (s) => [
    `ALTER TABLE ${s}.conversations ADD COLUMN fork_source text COLLATE "C",
      ADD COLUMN fork_prompt text COLLATE "C", ADD COLUMN fork_root text COLLATE "C"`,
    `CREATE INDEX conversations_by_root ON ${s}.conversations (fork_root, updated_at DESC, id DESC)
      WHERE fork_root IS NOT NULL`,
    `CREATE TABLE ${s}.shared_prompts (
      conversation_id text COLLATE "C" NOT NULL REFERENCES ${s}.conversations (id) ON DELETE CASCADE,
      position integer NOT NULL,
      prompt_id text COLLATE "C" NOT NULL REFERENCES ${s}.prompts (id),
      PRIMARY KEY (conversation_id, position)
    )`,
    // Whether a prompt is still shared, when its conversation or a fork is deleted.
    `CREATE INDEX shared_prompts_by_prompt ON ${s}.shared_prompts (prompt_id)`,
    `ALTER TABLE ${s}.prompts DROP CONSTRAINT prompts_conversation_id_fkey`,
  ],
};
