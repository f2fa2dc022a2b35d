import { mcpPlugin } from '@tessera/plugin-mcp';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALICE, BOB, testServer } from './harness.ts';
import { type Expectations, problemsWith } from './support/fuzz/check.ts';
import { createValidator, type OpenApiDocument, operationsOf } from './support/fuzz/document.ts';
import {
  bindingsOf,
  createFixtures,
  idsOf,
  type Snapshot,
  secretOf,
  snapshot,
} from './support/fuzz/fixtures.ts';
import {
  catalogue,
  type FuzzCase,
  type FuzzContext,
  requests,
  strayMethods,
} from './support/fuzz/requests.ts';
import { sendRaw } from './support/fuzz/send.ts';

/**
 * Hostile requests to every operation of the served OpenAPI document, made from the document itself. Mallory
 * sends them, aiming at her own things and at Alice's and Bob's: no answer is a 5xx, every status and body is
 * one the operation documents, no answer shows her anything of theirs, and afterwards Alice and Bob read back
 * exactly what they had.
 *
 * Bounded for `pnpm test`: a fixed catalogue and RUNS generated requests an operation. A failure names its
 * seed: FUZZ_SEED=<seed> generates the same requests again; FUZZ_RUNS=<n> fuzzes longer.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

const MALLORY = 'mallory-token-0123456789';
const LIMITS = { maxBodyBytes: 200_000, maxUploadBytes: 400_000 };
/** Rate limits on (their middleware is fuzzed too), too high to be reached: a 429 would hide what comes after. */
const UNREACHED = { max: 1_000_000, windowSeconds: 60 };
const RATE_LIMITS = {
  failedAuth: { ...UNREACHED, blockSeconds: 1 },
  requestsPerUser: UNREACHED,
  promptsPerUser: UNREACHED,
  requestsPerAddress: UNREACHED,
};

let t: Awaited<ReturnType<typeof testServer>>;
let document: OpenApiDocument;
let before: { alice: Snapshot; bob: Snapshot };
let context: FuzzContext;

beforeAll(async () => {
  t = await testServer('demo model', {
    auth: { tokens: { [ALICE]: 'alice', [BOB]: 'bob', [MALLORY]: 'mallory' } },
    limits: LIMITS,
    rateLimits: RATE_LIMITS,
    // Every plugin with routes: the MCP plugin's (with no server) too.
    plugins: [mcpPlugin({ servers: {} })],
  });
  document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApiDocument;
  await Promise.all([
    createFixtures(t.request, ALICE, 'Alice'),
    createFixtures(t.request, BOB, 'Bob'),
    // Mallory's own things are there to be changed: more of them last longer.
    createFixtures(t.request, MALLORY, 'Mallory', { waiting: 4 }),
  ]);
  before = { alice: await snapshot(t.request, ALICE), bob: await snapshot(t.request, BOB) };
  context = await fuzzContext();
}, 120_000);

afterAll(async () => t?.close());

/** What the fuzz aims with: Mallory's token, session cookie and ids, Alice's and Bob's ids, page cursors. */
async function fuzzContext(): Promise<FuzzContext> {
  const signedIn = await fetch(`${t.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: MALLORY }),
  });
  const sessionCookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const mine = await snapshot(t.request, MALLORY);
  const own = idsOf(mine);
  const stream = await sendRaw(new URL(t.url), {
    method: 'GET',
    path: `/api/conversations/${own.conversations![0]}/events`,
    headers: { authorization: `Bearer ${MALLORY}` },
  });
  const boot = JSON.parse(stream.events!.at(-1)!.data).boot as string;
  const victims = [idsOf(before.alice), idsOf(before.bob)];
  const theirs = Object.fromEntries(
    Object.keys(own).map((key) => [key, victims.flatMap((ids) => ids[key] ?? [])]),
  );
  const cursors = [];
  for (const token of [ALICE, BOB, MALLORY]) {
    cursors.push((await t.request('GET', '/api/conversations?limit=1', { token })).body.nextCursor as string);
  }
  return {
    document,
    tokens: { fuzzer: MALLORY, victims: [ALICE, BOB] },
    sessionCookie,
    ids: { own, victims: theirs },
    bindings: [mine, before.alice, before.bob].flatMap(bindingsOf),
    boot,
    cursors,
    limits: LIMITS,
  };
}

/** What only Alice's or Bob's data holds: their ids (not those everyone shares) and their texts. */
function secrets(): string[] {
  const shared = new Set(Object.values(context.ids.own).flat());
  const ids = Object.values(context.ids.victims)
    .flat()
    .filter((id) => !shared.has(id));
  return [...new Set(ids), secretOf('Alice'), secretOf('Bob')];
}

/** Sends the request and says what is wrong with the answer. */
async function exchange(request: FuzzCase, expectations: Expectations): Promise<string[]> {
  const made = await request.body?.make();
  const headers = {
    ...request.headers,
    ...(made?.contentType !== undefined && { 'content-type': made.contentType }),
  };
  const { method, path } = request;
  const response = await sendRaw(new URL(t.url), { method, path, headers, body: made?.bytes });
  return problemsWith({ method, path, body: made?.bytes }, response, expectations);
}

it('answers hostile requests to every operation as documented, never with a 5xx, never with their data', async () => {
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(30);
  const validate = createValidator(document);
  // The validator is not vacuous: it reads the components the document refers to.
  expect(validate({ $ref: '#/components/schemas/Conversation' }, { id: 1 })).toBeDefined();
  expect(
    validate({ $ref: '#/components/schemas/Error' }, { error: { code: 'x', message: 'y' } }),
  ).toBeUndefined();
  const expectations = {
    operations,
    validate,
    errorSchema: { $ref: '#/components/schemas/Error' },
    secrets: secrets(),
  };
  const prototype = Object.getOwnPropertyNames(Object.prototype);

  for (const request of strayMethods(operations, context)) {
    const problems = await exchange(request, expectations);
    expect({ request: String(request[fc.toStringMethod]()), problems }).toMatchObject({ problems: [] });
  }
  // Deleting last: the fuzzer's own things stay there to be aimed at for as long as possible.
  const ordered = [...operations].sort(
    (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
  );
  for (const op of ordered) {
    // The catalogue first (the same every run), then RUNS generated requests.
    const examples = catalogue(op, context).map((request): [FuzzCase] => [request]);
    await fc.assert(
      fc.asyncProperty(requests(op, context), async (request) => {
        expect(await exchange(request, expectations)).toEqual([]);
      }),
      { seed: SEED, numRuns: examples.length + RUNS, examples },
    );
  }
  // The server runs in this process: no request may have set anything on Object.prototype.
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}, 300_000);

it("leaves Alice's and Bob's data exactly as it was, and shows neither the other's", async () => {
  const after = { alice: await snapshot(t.request, ALICE), bob: await snapshot(t.request, BOB) };
  expect(after).toEqual(before);
  const alice = JSON.stringify(after.alice);
  const bob = JSON.stringify(after.bob);
  const ids = (snap: Snapshot) => Object.values(idsOf(snap)).flat();
  const shared = new Set(ids(after.alice).filter((id) => ids(after.bob).includes(id))); // shared blueprints, skills
  const only = (snap: Snapshot) => ids(snap).filter((id) => !shared.has(id));
  expect(only(after.bob).filter((id) => alice.includes(id))).toEqual([]);
  expect(only(after.alice).filter((id) => bob.includes(id))).toEqual([]);
  expect([alice.includes(secretOf('Bob')), bob.includes(secretOf('Alice'))]).toEqual([false, false]);
  const mallory = JSON.stringify(await snapshot(t.request, MALLORY));
  expect(secrets().filter((secret) => mallory.includes(secret))).toEqual([]);
});
