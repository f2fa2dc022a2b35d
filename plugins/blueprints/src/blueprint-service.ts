import {
  type DependencyContainer,
  NotFoundError,
  newId,
  type RecordStore,
  StoreToken,
  TesseraError,
} from '@tessera/core';
import { type Blueprint, type BlueprintMatch, type NewBlueprint, SHARED } from './blueprint.ts';
import { OwnerIndexes, toIndexed } from './owner-indexes.ts';
import { searchTerms } from './search-terms.ts';

export const BLUEPRINTS_NAMESPACE = 'blueprints';
export const BlueprintServiceToken = Symbol.for('tessera.blueprints.service');

/**
 * How many blueprints one user keeps by default. A person's reusable procedures number in the tens; 200
 * leaves room for that while bounding what one user costs: their records (at most ~21 KB each, so ~4 MB),
 * their index (~3,000 characters a blueprint, `INDEXED_STEPS_CHARS`), rebuilding it, and listing them.
 */
export const DEFAULT_MAX_BLUEPRINTS_PER_USER = 200;

const key = (owner: string, id: string) => `${owner}:${id}`;
/**
 * What a blueprint id looks like (`newId`'s): no colon, so that `owner:id` names one blueprint. An id from a
 * client with a colon would be another owner's key: the user `ada` asking for `lab:<id>` would read and delete
 * the blueprint `<id>` of the user `ada:lab`.
 */
const BLUEPRINT_ID = /^[\w-]{1,100}$/;

export type SearchOptions = { limit?: number; minScore?: number };
export type BlueprintServiceOptions = {
  /** Blueprints one user may keep (default `DEFAULT_MAX_BLUEPRINTS_PER_USER`); `shared` is not counted. */
  maxBlueprintsPerUser?: number;
};

/**
 * Blueprints in the platform's record store (one record each, keyed `owner:id`), with a full-text index per
 * owner (MiniSearch: BM25, fuzzy and prefix matching, the title boosted) built from the store on first use and
 * kept in step by every save and delete made here. Users see their own blueprints and the shared ones, and
 * keep at most `maxBlueprintsPerUser`. A search reads its query within `SEARCH_LIMITS` and each blueprint
 * within `INDEXED_STEPS_CHARS`, and looks only in its user's and the shared index.
 */
export class BlueprintService {
  readonly #container: DependencyContainer;
  readonly #maxPerUser: number;
  readonly #indexes = new OwnerIndexes((owner) => this.#pages(owner));
  /** How many searches ran (the plugin caches per input; tests and metrics read this). */
  searches = 0;
  /** How many terms those searches looked up in the index, at most `SEARCH_LIMITS.maxTerms` each. */
  termsSearched = 0;
  /** How many blueprints those searches looked among: those of the indexes searched (the user's, shared). */
  documentsSearched = 0;

  constructor(container: DependencyContainer, options: BlueprintServiceOptions = {}) {
    this.#container = container;
    this.#maxPerUser = options.maxBlueprintsPerUser ?? DEFAULT_MAX_BLUEPRINTS_PER_USER;
  }

  get #records(): RecordStore {
    return this.#container.resolve(StoreToken).records;
  }

  /** The owner's stored blueprints, page by page. */
  async *#pages(owner: string): AsyncGenerator<Blueprint[]> {
    let cursor: string | undefined;
    do {
      const page = await this.#records.list<Blueprint>(BLUEPRINTS_NAMESPACE, {
        prefix: `${owner}:`,
        limit: 500,
        ...(cursor && { cursor }),
      });
      // The prefix `owner:` is also that of a user named `owner:…` (`ada` and `ada:lab`): exactly this owner's.
      yield page.items.flatMap((r) => (r.value.owner === owner ? [r.value] : []));
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** How many blueprints the owner has in the store, counted up to one past the cap. */
  async #count(owner: string): Promise<number> {
    let count = 0;
    for await (const page of this.#pages(owner)) {
      count += page.length;
      if (count > this.#maxPerUser) break;
    }
    return count;
  }

  /**
   * Saves a new blueprint of `owner`'s; `TesseraError` `too_many_blueprints` if they have
   * `maxBlueprintsPerUser` already (`shared`, written by the app, has no cap).
   */
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
    const id = key(owner, blueprint.id);
    await this.#records.put(BLUEPRINTS_NAMESPACE, id, blueprint, { expectedVersion: 0 });
    // Inserted first, counted after: of saves at the same time (in any process) each counts the others it
    // follows, so the blueprints kept never exceed the cap (at worst a save near it is refused for nothing).
    if (owner !== SHARED && (await this.#count(owner)) > this.#maxPerUser) {
      await this.#records.delete(BLUEPRINTS_NAMESPACE, id);
      await this.#unindex(owner, blueprint);
      throw new TesseraError(
        'too_many_blueprints',
        `You may keep at most ${this.#maxPerUser} blueprints, and you have as many: delete one you no longer need, then save this one again.`,
      );
    }
    const index = await this.#indexes.loaded(owner);
    // An index being built may already have read the new record from the store.
    if (index?.has(blueprint.id)) index.replace(toIndexed(blueprint));
    else index?.add(toIndexed(blueprint));
    return blueprint;
  }

  /**
   * Takes a deleted blueprint out of its owner's index, if that is in memory (and may have read it). Removed,
   * not discarded: a discarded one's words still count in the index's statistics until it is vacuumed, and in
   * an index of a few blueprints that turns scores negative (the indexed fields never change, so the
   * blueprint gives exactly what was indexed).
   */
  async #unindex(owner: string, blueprint: Blueprint): Promise<void> {
    const index = await this.#indexes.loaded(owner);
    if (index?.has(blueprint.id)) index.remove(toIndexed(blueprint));
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
    const stored = BLUEPRINT_ID.test(id)
      ? await this.#records.get<Blueprint>(BLUEPRINTS_NAMESPACE, key(userId, id))
      : undefined;
    if (!stored || !(await this.#records.delete(BLUEPRINTS_NAMESPACE, key(userId, id)))) {
      throw new NotFoundError(`There is no blueprint ${id} of yours.`);
    }
    await this.#unindex(userId, stored.value);
  }

  /** The user's blueprints and the shared ones (at most `maxBlueprintsPerUser` of the user's). */
  async list(userId: string): Promise<Blueprint[]> {
    const all: Blueprint[] = [];
    for (const owner of new Set([userId, SHARED]))
      for await (const page of this.#pages(owner)) all.push(...page);
    return all;
  }

  /**
   * A page of `list`: the user's blueprints, then the shared ones, `limit` at most (a page can hold fewer), with
   * `nextCursor` for the next (absent on the last). The cursor is `<0 or 1>:<the store's cursor>`: which owner,
   * and where in theirs.
   */
  async page(
    userId: string,
    options: { limit?: number; cursor?: string } = {},
  ): Promise<{ items: Blueprint[]; nextCursor?: string }> {
    const owners = [...new Set([userId, SHARED])];
    const limit = options.limit ?? 50;
    const at = options.cursor === undefined ? ['0', ''] : /^([01]):(.*)$/s.exec(options.cursor)?.slice(1);
    if (!at)
      throw new TesseraError('invalid_input', 'Not a cursor: use the nextCursor of the previous page.');
    let [owner, cursor] = [Number(at[0]), at[1] || undefined];
    const items: Blueprint[] = [];
    while (owner < owners.length && items.length < limit) {
      const page = await this.#records.list<Blueprint>(BLUEPRINTS_NAMESPACE, {
        prefix: `${owners[owner]}:`,
        limit: limit - items.length,
        ...(cursor && { cursor }),
      });
      items.push(...page.items.flatMap((r) => (r.value.owner === owners[owner] ? [r.value] : [])));
      cursor = page.nextCursor;
      if (!cursor) owner++;
    }
    return owner < owners.length ? { items, nextCursor: `${owner}:${cursor ?? ''}` } : { items };
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
    const hits = [];
    // The user's index and the shared one only: another user's blueprints are never looked at.
    for (const owner of new Set([userId, SHARED])) {
      const index = await this.#indexes.load(owner);
      this.documentsSearched += index.documentCount;
      hits.push(...index.search(terms.join(' ')));
    }
    return hits
      .filter((hit) => hit.score >= (options.minScore ?? 0))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit ?? 5)
      .map((hit) => ({
        id: hit.id as string,
        title: hit.title as string,
        summary: hit.summary as string,
        score: hit.score,
      }));
  }
}

/** The blueprint service of a platform that has the blueprints plugin (for apps: HTTP routes, admin). */
export const blueprintService = (services: DependencyContainer): BlueprintService =>
  services.resolve(BlueprintServiceToken);
