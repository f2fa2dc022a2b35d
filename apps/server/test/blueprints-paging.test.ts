import { blueprintService, SHARED } from '@tessera/plugin-blueprints';
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const blueprint = (n: number) => ({
  title: `Procedure ${n}`,
  summary: `How to do task ${n}.`,
  steps: `1. Do task ${n}.`,
  tags: [],
});

describe('GET /api/blueprints, a page at a time', () => {
  it('gives your blueprints then the shared ones, limit at a time (at most 200), following nextCursor', async () => {
    t = await testServer();
    const service = blueprintService(t.server.platform.services);
    for (const n of [0, 1, 2, 3, 4]) await service.save('alice', blueprint(n));
    await service.save('bob', blueprint(5));
    const titles: string[] = [];
    let path = '/api/blueprints?limit=2';
    for (let pages = 0; pages < 20; pages++) {
      const { status, body } = await t.request('GET', path);
      expect(status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(2);
      titles.push(...body.items.map((b: { title: string }) => b.title));
      if (body.nextCursor === undefined) break;
      path = `/api/blueprints?limit=2&cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    const all = await service.list('alice');
    expect(all.filter((b) => b.owner === SHARED).length).toBeGreaterThan(0); // the seeded examples
    expect(titles).toEqual(all.map((b) => b.title));
    expect(titles).not.toContain('Procedure 5');

    const { body: first } = await t.request('GET', '/api/blueprints');
    expect(first.items.length).toBe(Math.min(50, all.length)); // 50 unless given
    const { body: bobs } = await t.request('GET', '/api/blueprints?limit=200', { token: BOB });
    expect(bobs.items.filter((b: { owner: string }) => b.owner !== SHARED)).toHaveLength(1);
    expect((await t.request('GET', '/api/blueprints?limit=201')).status).toBe(400);
    const forged = await t.request('GET', '/api/blueprints?cursor=forged');
    expect([forged.status, forged.body.error.code]).toEqual([400, 'invalid_input']);
  });
});
