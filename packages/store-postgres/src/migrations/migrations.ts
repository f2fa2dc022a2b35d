import { FORKS_MIGRATION } from './forks-migration.ts';
import { MESSAGE_PROMPT_MIGRATION, MESSAGES_MIGRATION } from './messages-migration.ts';
import { SEARCH_MIGRATION } from './search-migration.ts';
import { PROMPTS_BY_USER_MIGRATION } from './user-prompts-migration.ts';

/**
 * The schema's history. A migration is never edited once released and never destroys data: a new version
 * adds tables, columns or indexes. Statements get the quoted schema name.
 */
export type Migration = {
  version: number;
  name: string;
  statements: (schema: string) => string[];
};

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations, plugin states, prompts, outputs, records',
    statements: (s) => [
      // Ids compare byte-wise ("C") so ordering and prefix scans behave the same on every server locale.
      `CREATE TABLE ${s}.conversations (
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL,
        title text,
        extra jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX conversations_by_user ON ${s}.conversations (user_id, updated_at DESC, id DESC)`,
      // One row per (conversation, plugin): a plugin's write never rewrites the conversation or other plugins.
      `CREATE TABLE ${s}.plugin_states (
        conversation_id text COLLATE "C" NOT NULL REFERENCES ${s}.conversations (id) ON DELETE CASCADE,
        plugin_id text COLLATE "C" NOT NULL,
        state jsonb,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (conversation_id, plugin_id)
      )`,
      `CREATE TABLE ${s}.prompts (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text COLLATE "C" PRIMARY KEY,
        conversation_id text COLLATE "C" NOT NULL REFERENCES ${s}.conversations (id) ON DELETE CASCADE,
        user_id text COLLATE "C" NOT NULL,
        model text NOT NULL,
        visible boolean NOT NULL,
        state text NOT NULL,
        input text,
        usage jsonb NOT NULL,
        stop_reason jsonb,
        metadata jsonb,
        extra jsonb,
        output_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX prompts_history ON ${s}.prompts (conversation_id, seq)`,
      `CREATE INDEX prompts_by_state ON ${s}.prompts (state, seq)`,
      // The busy guard: at most one active prompt per conversation, enforced by the database for every process.
      `CREATE UNIQUE INDEX prompts_one_active_per_conversation ON ${s}.prompts (conversation_id)
        WHERE state IN ('running', 'waiting_for_approval')`,
      // The output array as rows: appending inserts one row, a tool result arriving updates one row.
      `CREATE TABLE ${s}.prompt_outputs (
        prompt_id text COLLATE "C" NOT NULL REFERENCES ${s}.prompts (id) ON DELETE CASCADE,
        position integer NOT NULL,
        output_id text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        PRIMARY KEY (prompt_id, position)
      )`,
      // Finds the prompt of a tool call, and the row to replace, without scanning a long prompt's outputs.
      `CREATE UNIQUE INDEX prompt_outputs_by_output_id ON ${s}.prompt_outputs (output_id, prompt_id)`,
      `CREATE TABLE ${s}.records (
        namespace text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        version integer NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (namespace, id)
      )`,
    ],
  },
  {
    version: 2,
    name: 'the process running each prompt, for recovery across processes',
    statements: (s) => [`ALTER TABLE ${s}.prompts ADD COLUMN runner text COLLATE "C"`],
  },
  MESSAGES_MIGRATION,
  MESSAGE_PROMPT_MIGRATION,
  PROMPTS_BY_USER_MIGRATION,
  SEARCH_MIGRATION,
  FORKS_MIGRATION,
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
