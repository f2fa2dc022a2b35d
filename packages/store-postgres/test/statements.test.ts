import { createPlatform } from '@tessera/core';
import { reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../src/index.ts';
import { createTempPglite, uniqueSchema } from './support/databases.ts';

// PGlite: the same statements as on a server, without the relay's.
let database: Awaited<ReturnType<typeof createTempPglite>>;
beforeAll(async () => {
  database = await createTempPglite();
});
afterAll(() => database?.dispose());

describe('statements a prompt costs (issue 36)', () => {
  it('starts a prompt in one statement, which reads the conversation and history the model is sent', async () => {
    const store = await createPostgresStore({ pglite: database.db, schema: uniqueSchema() });
    const { driver } = store;
    const statements: string[] = [];
    const query = driver.query.bind(driver);
    driver.query = (sql, params) => {
      statements.push(sql);
      return query(sql, params);
    };
    let atModelCall = -1;
    const model = new ScriptedModel([
      reply('First answer.'),
      () => {
        atModelCall = statements.length;
        return reply('Second answer.');
      },
    ]);
    const platform = createPlatform({ store, model });
    const userId = 'user_statements';
    const conversation = await platform.conversations.create({ userId });
    await platform.send({ conversationId: conversation.id, userId, input: 'first question' });
    const before = statements.length;

    const second = await platform.send({ conversationId: conversation.id, userId, input: 'second question' });
    expect(second.state).toBe('completed');
    expect(statements.slice(before, atModelCall)).toHaveLength(1);
    expect(model.read(1)).toContain('user: first question');
    expect(model.read(1)).toContain('assistant: First answer.');
    expect(model.read(1)).toContain('user: second question');
    await platform.close();
    await store.close();
  });
});
