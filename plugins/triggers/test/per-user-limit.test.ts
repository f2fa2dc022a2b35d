import { TesseraError } from '@tessera/core';
import { createTestPlatform } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { triggerService, triggersPlugin } from '../src/index.ts';
import { setup } from './helpers.ts';

const daily = (n: number) =>
  ({
    name: `Daily ${n}`,
    instruction: 'Check the build.',
    schedule: { kind: 'interval', everyMinutes: 1_440 },
  }) as const;

describe('the triggers of one user are bounded (maxTriggersPerUser)', () => {
  it('past the default of 20, creating one is refused (too_many_triggers) until one is deleted; other users are not counted', async () => {
    const t = await setup();
    const made = [];
    for (let n = 0; n < 20; n++) made.push(await t.service.create(daily(n), t.owner));
    const refused = await t.service.create(daily(20), t.owner).catch((error: unknown) => error);
    expect(TesseraError.is(refused) && refused.code).toBe('too_many_triggers');
    expect((refused as Error).message).toMatch(/at most 20 triggers, and you have as many: delete one/);
    expect(await t.service.list(t.userId)).toHaveLength(20);

    const other = { userId: 'someone_else', conversationId: t.owner.conversationId };
    expect((await t.service.create(daily(0), other)).userId).toBe('someone_else');

    // Created at the same moment, they all pass the first count: never more than the bound are kept.
    await t.service.delete(t.userId, made[0]!.id);
    await t.service.delete(t.userId, made[1]!.id);
    const racing = await Promise.allSettled(
      Array.from({ length: 30 }, (_, n) => t.service.create(daily(100 + n), t.owner)),
    );
    expect(racing.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(2);
    expect((await t.service.list(t.userId)).length).toBeLessThanOrEqual(20);
    for (const trigger of (await t.service.list(t.userId)).slice(18))
      await t.service.delete(t.userId, trigger.id);
    expect((await t.service.create(daily(21), t.owner)).name).toBe('Daily 21');
  });

  it('takes its bound as an option, and refuses one that is not a positive integer', async () => {
    const t = await createTestPlatform({ plugins: [triggersPlugin({ maxTriggersPerUser: 1 })] });
    const service = triggerService(t.platform.services);
    const owner = { userId: t.userId, conversationId: t.conversation.id };
    await service.create(daily(0), owner);
    await expect(service.create(daily(1), owner)).rejects.toThrow(/at most 1 triggers/);
    expect(() => triggersPlugin({ maxTriggersPerUser: 0 })).toThrow(
      /maxTriggersPerUser must be a positive integer/,
    );
    expect(() => triggersPlugin({ maxTriggersPerUser: 1.5 })).toThrow(/maxTriggersPerUser/);
  });
});
