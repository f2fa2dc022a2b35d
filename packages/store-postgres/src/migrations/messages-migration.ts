import type { Migration } from './migrations.ts';

/** Version 3: the messages users send to a busy conversation (steering and queued follow-ups). */
export const MESSAGES_MIGRATION: Migration = {
  version: 3,
  name: 'waiting steering and follow-up messages',
  statements: (s) => [
    // `seq` orders a conversation's messages the same way for every process: the order they were added.
    `CREATE TABLE ${s}.messages (
      seq bigint GENERATED ALWAYS AS IDENTITY,
      id text COLLATE "C" PRIMARY KEY,
      conversation_id text COLLATE "C" NOT NULL REFERENCES ${s}.conversations (id) ON DELETE CASCADE,
      user_id text COLLATE "C" NOT NULL,
      mode text NOT NULL CHECK (mode IN ('steer', 'queue')),
      input text NOT NULL,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX messages_by_conversation ON ${s}.messages (conversation_id, seq)`,
  ],
};

/** Version 4: a follow-up runs on its sender's model class, with the sender's prompt metadata (time zone). */
export const MESSAGE_PROMPT_MIGRATION: Migration = {
  version: 4,
  name: "a waiting message's model class and prompt metadata",
  statements: (s) => [`ALTER TABLE ${s}.messages ADD COLUMN model text, ADD COLUMN metadata jsonb`],
};
