import { DefinitionError, MemoryStore, type RecordStore, type Store, TesseraError } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import blueprintsPluginFactory, {
  blueprintService,
  blueprintsPlugin,
  DEFAULT_MAX_BLUEPRINTS_PER_USER,
  INDEXED_STEPS_CHARS,
  type NewBlueprint,
  SHARED,
} from '../src/index.ts';
import { FIXTURE_BLUEPRINTS } from './fixtures.ts';

const small = (n: number): NewBlueprint => ({
  title: `Procedure ${n}`,
  summary: `How to do task ${n}.`,
  steps: `1. Do task ${n}.`,
  tags: [],
});

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A memory store whose record calls each wait a random few milliseconds before and after: saves interleave. */
function jitteryStore(): Store {
  const store = new MemoryStore();
  const pause = () => after(Math.random() * 3);
  const records = new Proxy(store.records, {
    get: (target, name) => {
      const call = Reflect.get(target, name) as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        await pause();
        const result = await call(...args);
        await pause();
        return result;
      };
    },
  }) as RecordStore;
  return { conversations: store.conversations, prompts: store.prompts, messages: store.messages, records };
}

describe('the blueprints of one user are bounded (maxBlueprintsPerUser)', () => {
  it('past the default of 200, saving one more is refused (too_many_blueprints) until one is deleted; others are not counted', async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPlugin()] });
    const service = blueprintService(t.platform.services);
    const kept = [];
    for (let n = 0; n < DEFAULT_MAX_BLUEPRINTS_PER_USER; n++) kept.push(await service.save('ada', small(n)));
    expect(kept).toHaveLength(200);
    await service.search('ada', 'procedure'); // the index in memory: a refused save must not reach it

    const refused = await refusal(service.save('ada', small(200)));
    expect(TesseraError.is(refused) && refused.code).toBe('too_many_blueprints');
    expect((refused as Error).message).toMatch(/at most 200 blueprints, and you have as many: delete one/);
    expect(await service.list('ada')).toHaveLength(200);
    expect(await service.search('ada', '200')).toEqual([]);

    // Changing one of your own is no new blueprint (a use counted rewrites its record).
    expect((await service.get('ada', kept[0]!.id, { countUse: true })).usageCount).toBe(1);
    // Other users and the shared blueprints have their own count.
    expect((await service.save('bob', small(0))).owner).toBe('bob');
    expect((await service.save(SHARED, small(0))).owner).toBe(SHARED);

    await service.delete('ada', kept[0]!.id);
    expect((await service.save('ada', small(201))).title).toBe('Procedure 201');
    expect((await service.search('ada', '201'))[0]?.title).toBe('Procedure 201');
  });

  it('refuses the tool’s save at the cap, after approval, with a message the model can act on', async () => {
    const t = await createTestPlatform({
      plugins: [blueprintsPlugin({ maxBlueprintsPerUser: 1 })],
      script: [callTool('blueprints.save', small(1)), reply('You have too many.')],
    });
    await blueprintService(t.platform.services).save(t.userId, small(0));
    const paused = await t.send('remember this');
    const done = await t.approve(paused.output[0]!.id);
    expect(t.toolError(done, 'blueprints.save').message).toMatch(/at most 1 blueprints.*delete one/);
    expect((await blueprintService(t.platform.services).list(t.userId)).map((b) => b.title)).toEqual([
      'Procedure 0',
    ]);
  });

  it('takes its bound as an option (the shared blueprints are not capped), and refuses one that is not a positive integer', async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPluginFactory({ maxBlueprintsPerUser: 2 })] });
    const service = blueprintService(t.platform.services);
    for (const n of [0, 1]) await service.save('ada', small(n));
    await expect(service.save('ada', small(2))).rejects.toThrow(/at most 2 blueprints/);
    for (const n of [0, 1, 2, 3]) await service.save(SHARED, small(n));
    expect(await service.list('ada')).toHaveLength(6);

    for (const invalid of [0, 1.5, -1]) {
      expect(() => blueprintsPlugin({ maxBlueprintsPerUser: invalid })).toThrow(
        /maxBlueprintsPerUser must be a positive integer/,
      );
      expect(() => blueprintsPluginFactory({ maxBlueprintsPerUser: invalid })).toThrow(DefinitionError);
    }
  });

  it('never keeps more than the cap when 50 saves run at once, whatever their interleaving', async () => {
    const t = await createTestPlatform({
      plugins: [blueprintsPlugin({ maxBlueprintsPerUser: 10 })],
      store: jitteryStore(),
    });
    const service = blueprintService(t.platform.services);
    for (const n of [0, 1, 2]) await service.save('ada', small(n));
    await service.search('ada', 'procedure'); // the index in memory, kept in step by the saves
    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.allSettled([
        // Started over a few milliseconds: some run alone, most overlap others.
        ...Array.from({ length: 50 }, (_, n) =>
          after(Math.random() * 150).then(() => service.save('ada', small(100 * round + n))),
        ),
        service.save('bob', small(round)), // another user's save at the same time is not refused
      ]);
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(refused.every((e) => TesseraError.is(e) && e.code === 'too_many_blueprints')).toBe(true);
      expect(outcomes.at(-1)!.status).toBe('fulfilled');
      const listed = await service.list('ada');
      expect(listed.length).toBeLessThanOrEqual(10);
      expect(listed.length).toBe(3 + 50 - refused.length);
      // The index holds exactly what the store keeps.
      const found = await service.search('ada', 'procedure', { limit: 100 });
      expect(found.map((m) => m.id).sort()).toEqual(listed.map((b) => b.id).sort());
      for (const blueprint of listed.slice(3)) await service.delete('ada', blueprint.id);
    }
    // Nothing refused was left behind: saving one by one fills exactly up to the cap.
    for (let n = 3; n < 10; n++) await service.save('ada', small(1_000 + n));
    await expect(service.save('ada', small(2_000))).rejects.toThrow(/at most 10 blueprints/);
    expect(await service.list('ada')).toHaveLength(10);
  });
});

describe('a search looks only at its user’s and the shared blueprints', () => {
  it('never finds nor scores another user’s, and 500 of theirs change nothing of it, nor after a restart', async () => {
    const store = new MemoryStore();
    const t = await createTestPlatform({ plugins: [blueprintsPlugin({ maxBlueprintsPerUser: 500 })], store });
    const service = blueprintService(t.platform.services);
    for (const blueprint of FIXTURE_BLUEPRINTS) await service.save('ada', blueprint);
    for (const blueprint of FIXTURE_BLUEPRINTS.slice(0, 2)) await service.save(SHARED, blueprint);
    const query = 'our TLS certificate expires, renew it';
    const searched = async (userId: string, on = service) => {
      const before = on.documentsSearched;
      const matches = await on.search(userId, query, { limit: 100 });
      return { matches, documents: on.documentsSearched - before };
    };
    const alone = await searched('ada');
    expect(alone.documents).toBe(FIXTURE_BLUEPRINTS.length + 2);
    expect(alone.matches[0]?.title).toBe('Renew the TLS certificates');

    const eve = [];
    for (let n = 0; n < 500; n++) {
      eve.push(
        await service.save('eve', {
          title: `Renew the TLS certificate ${n}`,
          summary: 'Renew our TLS certificate before it expires.',
          steps: 'renew tls certificate expires',
          tags: ['tls'],
        }),
      );
    }
    // The same documents looked at, the same scores: eve's blueprints are in no index ada's search reads.
    expect(await searched('ada')).toEqual(alone);
    expect((await searched('eve')).documents).toBe(502);

    // A new process reads from the store only the blueprints of whoever searches.
    const again = (await createTestPlatform({ plugins: [blueprintsPlugin()], store })).platform;
    expect(await searched('ada', blueprintService(again.services))).toEqual(alone);
  });

  it('keeps any user id apart, `__proto__` and `constructor` included', async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPlugin()] });
    const service = blueprintService(t.platform.services);
    const users = ['__proto__', 'constructor', 'hasOwnProperty', 'ada'];
    for (const [n, userId] of users.entries()) await service.save(userId, small(n));
    for (const [n, userId] of users.entries()) {
      expect((await service.search(userId, 'procedure task', { limit: 10 })).map((m) => m.title)).toEqual([
        `Procedure ${n}`,
      ]);
      expect((await service.list(userId)).map((b) => b.owner)).toEqual([userId]);
    }
  });
});

describe('what the index keeps of a blueprint', () => {
  it(`indexes the first ${INDEXED_STEPS_CHARS} characters of the steps, and no word the cut runs through`, async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPlugin()] });
    const service = blueprintService(t.platform.services);
    const filler = (chars: number) => 'step '.repeat(chars / 5); // stop-word-free, 5 characters a word
    const withSteps = (title: string, steps: string) =>
      service.save('ada', { title, summary: 'A long procedure.', steps, tags: [] });
    const past = await withSteps('Past the bound', `kathmandu ${filler(INDEXED_STEPS_CHARS)}zanzibar`);
    await withSteps('Cut by the bound', `${filler(INDEXED_STEPS_CHARS - 5)}timbuktu more`);
    await withSteps('Ends at the bound', `${filler(INDEXED_STEPS_CHARS - 10)}copenhagen more`);

    const titles = async (query: string) => (await service.search('ada', query)).map((m) => m.title);
    expect(await titles('kathmandu')).toEqual(['Past the bound']);
    expect(await titles('zanzibar')).toEqual([]);
    expect(await titles('timbu')).toEqual([]); // not even its cut start, "timbu", is kept
    expect(await titles('timbuktu')).toEqual([]);
    expect(await titles('copenhagen')).toEqual(['Ends at the bound']);
    expect(await titles('more')).toEqual([]);
    // The whole steps are kept in the store: `blueprints.get` reads them.
    expect((await service.get('ada', past.id)).steps).toMatch(/zanzibar$/);
  });
});

describe('listing a page at a time', () => {
  it('gives the user’s blueprints then the shared ones, limit at a time, and refuses a made-up cursor', async () => {
    const t = await createTestPlatform({ plugins: [blueprintsPlugin()] });
    const service = blueprintService(t.platform.services);
    for (const n of [0, 1, 2, 3, 4]) await service.save('ada', small(n));
    for (const n of [5, 6, 7]) await service.save(SHARED, small(n));
    await service.save('ada:lab', small(8)); // a key prefix `ada:` of another user's: not ada's
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await service.page('ada', { limit: 2, ...(cursor && { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      pages.push(page.items.map((b) => b.title));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages.flat()).toEqual((await service.list('ada')).map((b) => b.title));
    expect(pages.flat()).toHaveLength(8);
    expect(await service.page('ada', { limit: 200 })).toEqual({ items: await service.list('ada') });
    const refused = await refusal(service.page('ada', { cursor: 'x' }));
    expect(TesseraError.is(refused) && refused.code).toBe('invalid_input');
  });
});
