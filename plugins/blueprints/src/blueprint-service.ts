import { type DependencyContainer, NotFoundError, newId, type RecordStore, StoreToken } from '@tessera/core';
import MiniSearch from 'minisearch';
import { Blueprint, type BlueprintMatch, type NewBlueprint, SHARED } from './blueprint.ts';
import { processTerm, searchTerms } from './search-terms.ts';

export const BLUEPRINTS_NAMESPACE = 'blueprints';
export const BlueprintServiceToken = Symbol.for('tessera.blueprints.service');

type Indexed = { id: string; owner: string; title: string; summary: string; tags: string; steps: string };

const key = (owner: string, id: string) => `${owner}:${id}`;
/**
 * What a blueprint id looks like (`newId`'s): no colon, so that `owner:id` names one blueprint. An id from a
 * client with a colon would be another owner's key: the user `ada` asking for `lab:<id>` would read and delete
 * the blueprint `<id>` of the user `ada:lab`.
 */
const BLUEPRINT_ID = /^[\w-]{1,100}$/;

export type SearchOptions = { limit?: number; minScore?: number };

/**
 * Blueprints in the platform's record store (one record each, keyed `owner:id`), with a full-text index
 * (MiniSearch: BM25, fuzzy and prefix matching, the title boosted) built from the store on first use and
 * kept in step by every save and delete made here. Users see their own blueprints and the shared ones.
 * A search reads its query within `SEARCH_LIMITS`, so its cost does not grow with the query's length.
 */
export class BlueprintService {
  readonly #container: DependencyContainer;
  #index: Promise<MiniSearch<Indexed>> | undefined;
  /** How many searches ran (the plugin caches per input; tests and metrics read this). */
  searches = 0;
  /** How many terms those searches looked up in the index, at most `SEARCH_LIMITS.maxTerms` each. */
  termsSearched = 0;

  constructor(container: DependencyContainer) {
    this.#container = container;
  }

  get #records(): RecordStore {
    return this.#container.resolve(StoreToken).records;
  }

  #load(): Promise<MiniSearch<Indexed>> {
    this.#index ??= (async () => {
      const index = new MiniSearch<Indexed>({
        fields: ['title', 'summary', 'tags', 'steps'],
        storeFields: ['id', 'owner', 'title', 'summary'],
        idField: 'key',
        processTerm,
        extractField: (doc, field) =>
          field === 'key' ? key(doc.owner, doc.id) : (doc as Record<string, string>)[field]!,
        searchOptions: {
          boost: { title: 3, tags: 2, summary: 1.5 },
          // Typos in longer words only, and prefix matching for the word being typed: both cost, on every term.
          fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
          // At most two typos: what a typo is, and a bound on the work of each term (with its length's bound).
          maxFuzzy: 2,
          prefix: (_term, index, terms) => index === terms.length - 1,
        },
      });
      let cursor: string | undefined;
      do {
        const page = await this.#records.list<Blueprint>(BLUEPRINTS_NAMESPACE, {
          limit: 500,
          ...(cursor && { cursor }),
        });
        index.addAll(
          page.items.flatMap((r) => (Blueprint.safeParse(r.value).success ? [toIndexed(r.value)] : [])),
        );
        cursor = page.nextCursor;
      } while (cursor);
      return index;
    })();
    return this.#index;
  }

  async save(owner: string, input: NewBlueprint): Promise<Blueprint> {
    const at = new Date().toISOString();
    const blueprint: Blueprint = {
      ...input,
      id: newId('bp'),
      owner,
      usageCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    await this.#records.put(BLUEPRINTS_NAMESPACE, key(owner, blueprint.id), blueprint, {
      expectedVersion: 0,
    });
    const index = await this.#load();
    // The first load may already have read the new record from the store.
    if (index.has(key(owner, blueprint.id))) index.replace(toIndexed(blueprint));
    else index.add(toIndexed(blueprint));
    return blueprint;
  }

  /** The user's blueprint or a shared one; `NotFoundError` otherwise (also for another user's). */
  async get(userId: string, id: string, options: { countUse?: boolean } = {}): Promise<Blueprint> {
    for (const owner of BLUEPRINT_ID.test(id) ? [userId, SHARED] : []) {
      const stored = await this.#records.get<Blueprint>(BLUEPRINTS_NAMESPACE, key(owner, id));
      if (!stored) continue;
      if (!options.countUse) return stored.value;
      const used = { ...stored.value, usageCount: stored.value.usageCount + 1 };
      await this.#records.put(BLUEPRINTS_NAMESPACE, key(owner, id), used);
      return used;
    }
    throw new NotFoundError(`There is no blueprint ${id}.`);
  }

  /** Deletes one of the user's own blueprints (shared ones belong to the app). */
  async delete(userId: string, id: string): Promise<void> {
    if (!BLUEPRINT_ID.test(id) || !(await this.#records.delete(BLUEPRINTS_NAMESPACE, key(userId, id)))) {
      throw new NotFoundError(`There is no blueprint ${id} of yours.`);
    }
    const index = await this.#load();
    if (index.has(key(userId, id))) index.discard(key(userId, id));
  }

  async list(userId: string): Promise<Blueprint[]> {
    const all: Blueprint[] = [];
    for (const owner of [userId, SHARED]) {
      let cursor: string | undefined;
      do {
        const page = await this.#records.list<Blueprint>(BLUEPRINTS_NAMESPACE, {
          prefix: `${owner}:`,
          limit: 500,
          ...(cursor && { cursor }),
        });
        // The prefix `owner:` is also that of a user named `owner:…` (`ada` and `ada:lab`): exactly this owner's.
        all.push(...page.items.flatMap((r) => (r.value.owner === owner ? [r.value] : [])));
        cursor = page.nextCursor;
      } while (cursor);
    }
    return all;
  }

  /**
   * The user's and the shared blueprints that match `query` best, best first. Reads the query's terms within
   * `SEARCH_LIMITS` (the first distinct words of sensible length): a query of any size costs about the same.
   */
  async search(userId: string, query: string, options: SearchOptions = {}): Promise<BlueprintMatch[]> {
    this.searches++;
    const terms = searchTerms(query);
    this.termsSearched += terms.length;
    if (terms.length === 0) return [];
    const index = await this.#load();
    return index
      .search(terms.join(' '), { filter: (hit) => hit.owner === userId || hit.owner === SHARED })
      .filter((hit) => hit.score >= (options.minScore ?? 0))
      .slice(0, options.limit ?? 5)
      .map((hit) => ({
        id: hit.id as string,
        title: hit.title as string,
        summary: hit.summary as string,
        score: hit.score,
      }));
  }
}

function toIndexed(blueprint: Blueprint): Indexed {
  return {
    id: blueprint.id,
    owner: blueprint.owner,
    title: blueprint.title,
    summary: blueprint.summary,
    tags: blueprint.tags.join(' '),
    steps: blueprint.steps,
  };
}

/** The blueprint service of a platform that has the blueprints plugin (for apps: HTTP routes, admin). */
export const blueprintService = (services: DependencyContainer): BlueprintService =>
  services.resolve(BlueprintServiceToken);
