import { createPlatform, MemoryStore, type ToolOutput } from '@tessera/core';
import { callTool, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { blueprintService, blueprintsPlugin, SHARED } from '../src/index.ts';
import { FIXTURE_BLUEPRINTS, RANKING } from './fixtures.ts';

const result = (output: unknown) => (output as ToolOutput).result;

describe('ranking', () => {
  const t = { platform: undefined as unknown as ReturnType<typeof createPlatform> };
  beforeAll(async () => {
    t.platform = createPlatform({ plugins: [blueprintsPlugin()], model: new ScriptedModel() });
    const service = blueprintService(t.platform.services);
    for (const blueprint of FIXTURE_BLUEPRINTS) await service.save('ada', blueprint);
  });

  it.each(RANKING)('"%s" finds "%s" first', async (query, expected) => {
    const [top] = await blueprintService(t.platform.services).search('ada', query);
    expect(top?.title).toBe(expected);
  });

  it('finds nothing relevant for an unrelated input', async () => {
    expect(
      await blueprintService(t.platform.services).search('ada', 'zebra xylophone', { minScore: 6 }),
    ).toEqual([]);
  });
});

describe('the blueprints plugin', () => {
  it('puts relevant blueprints into context, searching once per input, and none for system prompts', async () => {
    const t = await createTestPlatform({
      plugins: [blueprintsPlugin()],
      script: [
        callTool('blueprints.search', { query: 'tls' }),
        reply('ok'),
        reply('nothing relevant'),
        reply('reminder'),
      ],
    });
    const service = blueprintService(t.platform.services);
    for (const blueprint of FIXTURE_BLUEPRINTS) await service.save(t.userId, blueprint);
    const before = service.searches;
    await t.send('Our TLS certificate expires next week, renew it');
    expect(service.searches - before).toBe(2); // one for the context (cached for round 2), one by the tool
    const context = t.model.requests[0]!.instructions;
    expect(context).toMatch(
      /Relevant blueprints[\s\S]*- Renew the TLS certificates — Renew and install TLS certificates/,
    );
    expect(t.model.requests[1]!.instructions).toBe(context);

    await t.send('zebra xylophone');
    expect(t.model.requests[2]!.instructions).not.toContain('Relevant blueprints');
    const searches = service.searches;
    await t.platform.send({ conversationId: t.conversation.id, userId: t.userId });
    expect(service.searches).toBe(searches);
  });

  it('saves only after approval, and a rejected save keeps nothing', async () => {
    const t = await createTestPlatform({
      plugins: [blueprintsPlugin()],
      script: [
        callTool('blueprints.save', {
          title: 'Brew good coffee',
          summary: 'Grind, bloom, pour.',
          steps: '1. Grind\n2. Bloom',
        }),
        reply('Saved.'),
        callTool('blueprints.save', { title: 'Forget this', summary: 'Not wanted.', steps: '1. No' }),
        reply('Not saved.'),
      ],
    });
    const paused = await t.send('remember how to brew coffee');
    expect(paused.state).toBe('waiting_for_approval');
    expect(result(paused.output[0])).toEqual({
      type: 'pending',
      reason: 'Remember the blueprint "Brew good coffee": Grind, bloom, pour.',
    });
    await t.approve(paused.output[0]!.id);
    const rejected = await t.send('remember this too');
    await t.reject(rejected.output[0]!.id);
    const titles = (await blueprintService(t.platform.services).list(t.userId)).map((b) => b.title);
    expect(titles).toEqual(['Brew good coffee']);
  });

  it('keeps users apart: shared blueprints are for everyone, private ones only for their owner', async () => {
    const store = new MemoryStore();
    const t = await createTestPlatform({
      plugins: [blueprintsPlugin()],
      store,
      script: [callTool('blueprints.get', { id: 'x' }), reply('ok')],
    });
    const service = blueprintService(t.platform.services);
    const mine = await service.save('ada', FIXTURE_BLUEPRINTS[0]!);
    const shared = await service.save(SHARED, FIXTURE_BLUEPRINTS[8]!);
    expect((await service.search('bob', 'newsletter')).map((m) => m.title)).not.toContain(
      'Publish the monthly newsletter',
    );
    expect((await service.search('bob', 'tls certificates'))[0]?.title).toBe('Renew the TLS certificates');
    await expect(service.get('bob', mine.id)).rejects.toThrow('There is no blueprint');
    await expect(service.delete('bob', mine.id)).rejects.toThrow('of yours');
    expect((await service.get('ada', mine.id, { countUse: true })).usageCount).toBe(1);

    // A user whose id starts with another's and a colon (keys are `owner:id`) lists only their own.
    const lab = await service.save('ada:lab', FIXTURE_BLUEPRINTS[1]!);
    expect((await service.list('ada')).map((b) => b.id)).toEqual([mine.id, shared.id]);
    expect((await service.list('ada:lab')).map((b) => b.id)).toContain(lab.id);
    // Nor can `ada` reach it as her blueprint `lab:<id>` (the same key): no blueprint id has a colon.
    await expect(service.get('ada', `lab:${lab.id}`)).rejects.toThrow('There is no blueprint');
    await expect(service.delete('ada', `lab:${lab.id}`)).rejects.toThrow('of yours');
    expect((await service.get('ada:lab', lab.id)).id).toBe(lab.id);
    await service.delete('ada:lab', lab.id);

    // The index is rebuilt from the store by a new platform instance.
    const again = createPlatform({ plugins: [blueprintsPlugin()], store, model: new ScriptedModel() });
    expect((await blueprintService(again.services).search('ada', 'newsletter'))[0]?.id).toBe(mine.id);
    await blueprintService(again.services).delete('ada', mine.id);
    expect(await blueprintService(again.services).search('ada', 'newsletter')).toEqual([]);
  });

  it('reads and deletes through tools, deletion with approval', async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPlugin()] });
    const saved = await blueprintService(t.platform.services).save(t.userId, FIXTURE_BLUEPRINTS[1]!);
    t.model.push(
      callTool('blueprints.get', { id: saved.id }),
      callTool('blueprints.delete', { id: saved.id }),
      reply('Deleted.'),
    );
    const paused = await t.send('onboard someone, then delete that blueprint');
    expect(result(paused.output[0])).toMatchObject({
      type: 'success',
      output: { title: 'Onboard a new employee', usageCount: 1 },
    });
    expect(paused.state).toBe('waiting_for_approval');
    const done = await t.approve(paused.output[1]!.id);
    expect(done.state).toBe('completed');
    expect(await blueprintService(t.platform.services).list(t.userId)).toEqual([]);
  });
});
