import MiniSearch from 'minisearch';
import { Blueprint, SHARED } from './blueprint.ts';
import { INDEXED_STEPS_CHARS, processTerm, readWithin } from './search-terms.ts';

type Indexed = { id: string; title: string; summary: string; tags: string; steps: string };
export type BlueprintIndex = MiniSearch<Indexed>;

/**
 * How many owners' indexes stay in memory; past it the least recently used one is dropped, and built again
 * from the store when next needed (at most `maxBlueprintsPerUser` records). With `INDEXED_STEPS_CHARS` this
 * bounds the plugin's memory however many users search: a full index of 200 blueprints of random words (the
 * worst case) holds ~21 MB and builds in ~0.2 s; one of prose, sharing its words, far less.
 */
export const MAX_LOADED_INDEXES = 50;

/** What the index keeps of a blueprint: bounded, whatever its steps hold. */
export const toIndexed = (blueprint: Blueprint): Indexed => ({
  id: blueprint.id,
  title: blueprint.title,
  summary: blueprint.summary,
  tags: blueprint.tags.join(' '),
  steps: readWithin(blueprint.steps, INDEXED_STEPS_CHARS),
});

const newIndex = (): BlueprintIndex =>
  new MiniSearch<Indexed>({
    fields: ['title', 'summary', 'tags', 'steps'],
    storeFields: ['id', 'title', 'summary'],
    processTerm,
    searchOptions: {
      boost: { title: 3, tags: 2, summary: 1.5 },
      // Typos in longer words only, and prefix matching for the word being typed: both cost, on every term.
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      // At most two typos: what a typo is, and a bound on the work of each term (with its length's bound).
      maxFuzzy: 2,
      prefix: (_term, index, terms) => index === terms.length - 1,
    },
  });

/**
 * One full-text index per owner (each user, and `shared`), built from the store on first use: a search
 * looks only in the indexes of its user and of the shared blueprints, so its cost never depends on other
 * users' blueprints, and a restart reads only the blueprints of those who search. A `Map`, so that any user
 * id (`__proto__` too) is just a key.
 */
export class OwnerIndexes {
  readonly #indexes = new Map<string, Promise<BlueprintIndex>>();
  readonly #read: (owner: string) => AsyncIterable<Blueprint[]>;

  /** `read` gives the owner's stored blueprints, page by page. */
  constructor(read: (owner: string) => AsyncIterable<Blueprint[]>) {
    this.#read = read;
  }

  /** The owner's index, built on first use, and marked most recently used. */
  load(owner: string): Promise<BlueprintIndex> {
    let index = this.#indexes.get(owner);
    if (index)
      this.#indexes.delete(owner); // set again below: a Map keeps insertion order
    else {
      const building = this.#build(owner);
      // A failed build is not kept: the next use tries again.
      building.catch(() => this.#indexes.get(owner) === building && this.#indexes.delete(owner));
      index = building;
    }
    this.#indexes.set(owner, index);
    if (this.#indexes.size > MAX_LOADED_INDEXES) {
      // The shared index stays: every user's search reads it, and it may hold the most blueprints to rebuild.
      for (const oldest of this.#indexes.keys()) {
        if (oldest === SHARED) continue;
        this.#indexes.delete(oldest);
        break;
      }
    }
    return index;
  }

  /**
   * The owner's index if it is in memory. A change to the store needs to reach only that one: an index built
   * later reads the store as it is then.
   */
  loaded(owner: string): Promise<BlueprintIndex> | undefined {
    return this.#indexes.get(owner);
  }

  async #build(owner: string): Promise<BlueprintIndex> {
    const index = newIndex();
    for await (const page of this.#read(owner)) {
      index.addAll(page.flatMap((b) => (Blueprint.safeParse(b).success ? [toIndexed(b)] : [])));
    }
    return index;
  }
}
