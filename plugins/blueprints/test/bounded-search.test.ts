import { createPlatform } from '@tessera/core';
import { createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BlueprintsState,
  blueprintService,
  blueprintsPlugin,
  SEARCH_LIMITS,
  searchTerms,
} from '../src/index.ts';
import { FIXTURE_BLUEPRINTS } from './fixtures.ts';

/** `count` distinct words of letters only, none a stop word: `kwq`, `kwr`, ... */
const distinctWords = (count: number) =>
  Array.from({ length: count }, (_, i) => `kw${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[+d]!)}`);

describe('what a search reads of its text', () => {
  it('skips a word longer than maxTermLength, however long, and keeps the others', () => {
    const long = 'x'.repeat(100_000);
    expect(searchTerms(long)).toEqual([]);
    expect(searchTerms(`renew ${'x'.repeat(5_000)} the TLS certificate`)).toEqual([
      'renew',
      'tls',
      'certificate',
    ]);
    expect(searchTerms('y'.repeat(SEARCH_LIMITS.maxTermLength))).toEqual([
      'y'.repeat(SEARCH_LIMITS.maxTermLength),
    ]);
    expect(searchTerms('y'.repeat(SEARCH_LIMITS.maxTermLength + 1))).toEqual([]);
  });

  it('reads at most maxTerms distinct terms, the first ones met, repeats and stop words not counted', () => {
    const words = distinctWords(20_000);
    const terms = searchTerms(words.join(' '));
    expect(terms).toHaveLength(SEARCH_LIMITS.maxTerms);
    expect(terms).toEqual(words.slice(0, SEARCH_LIMITS.maxTerms));
    expect(searchTerms('Deploy the deploy, DEPLOY it and the release')).toEqual(['deploy', 'release']);
  });

  it('reads the first maxChars characters only, and not a word the cut runs through', () => {
    const padding = 'the '.repeat(SEARCH_LIMITS.maxChars / 4); // exactly maxChars characters, all stop words
    expect(searchTerms(`${padding}deploy`)).toEqual([]);
    expect(searchTerms(`${padding.slice(0, -4)}the deploy`)).toEqual([]); // "deploy" starts past the cut
    expect(searchTerms(`${padding.slice(0, -8)}the deploy`)).toEqual([]); // "depl|oy": cut inside it
    expect(searchTerms(`${padding.slice(0, -8)}  deploy x`)).toEqual(['deploy']); // ends right at the cut
  });

  it('splits words as the index does (punctuation and spaces of any script), in lower case', () => {
    expect(searchTerms('Rückerstattung—für «Kunden»; 顧客\u3000返金')).toEqual([
      'rückerstattung',
      'für',
      'kunden',
      '顧客',
      '返金',
    ]);
  });
});

describe('a search over a huge query', () => {
  const t = { platform: undefined as unknown as ReturnType<typeof createPlatform> };
  beforeAll(async () => {
    t.platform = createPlatform({ plugins: [blueprintsPlugin()], model: new ScriptedModel() });
    const service = blueprintService(t.platform.services);
    for (const blueprint of FIXTURE_BLUEPRINTS) await service.save('ada', blueprint);
  });

  it('finds the right blueprint next to a 100,000-character word, looking up only the real words', async () => {
    const service = blueprintService(t.platform.services);
    let before = service.termsSearched;
    const [top] = await service.search('ada', `our TLS certificate expires: ${'x'.repeat(100_000)}`);
    expect(top?.title).toBe('Renew the TLS certificates');
    expect(service.termsSearched - before).toBe(3); // tls, certificate, expires
    before = service.termsSearched;
    expect(await service.search('ada', 'x'.repeat(100_000))).toEqual([]);
    expect(service.termsSearched - before).toBe(0);
  });

  it('looks up at most maxTerms terms of 100,000 characters of distinct words (near-matches included)', async () => {
    const service = blueprintService(t.platform.services);
    // Typos of indexed words (fuzzy matches), then thousands of other words.
    const nearMatches = ['newsleter', 'certifcate', 'databse', 'refnd', 'relese', 'produktion'];
    const input = [...nearMatches, ...distinctWords(30_000)].join(' ').slice(0, 100_000);
    const before = service.termsSearched;
    const [top] = await service.search('ada', input);
    expect(service.termsSearched - before).toBe(SEARCH_LIMITS.maxTerms);
    expect(top).toBeDefined(); // the near-matches still find something
  });
});

describe('the plugin with a huge input', () => {
  it('puts the relevant blueprint into context and keeps only the bounded query in state', async () => {
    const plugin = blueprintsPlugin();
    const t = await createTestPlatform({ plugins: [plugin], script: [reply('ok')] });
    const service = blueprintService(t.platform.services);
    for (const blueprint of FIXTURE_BLUEPRINTS) await service.save(t.userId, blueprint);
    const input = `Our TLS certificate expires next week, renew it: ${'x'.repeat(100_000)}`;
    await t.send(input);
    expect(t.model.requests[0]!.instructions).toContain('- Renew the TLS certificates');
    const { lastSearch } = (await t.platform.pluginState(t.conversation.id, plugin)).get();
    expect(lastSearch?.query).toBe('tls certificate expires next week renew');
  });

  it('drops a cached search of the older shape (which kept the whole input) instead of failing', () => {
    expect(BlueprintsState.parse({ lastSearch: { input: 'renew tls', matches: [] } })).toEqual({});
  });
});
