import { createHash, timingSafeEqual } from 'node:crypto';

type Entry = { digest: Buffer; userId: string };

/** A token's SHA-256 digest: what is kept and compared, never the token. */
export const tokenDigest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * The configured tokens and whose they are. A presented token is compared with every configured one, each
 * comparison in constant time over SHA-256 digests (equal lengths whatever the token's), with no early exit:
 * how long the answer takes tells nothing of how close a guess was. Only configured entries can match: no
 * object property (`constructor`, `__proto__`, …) is ever consulted.
 */
export class TokenTable {
  readonly #entries: readonly Entry[];

  constructor(tokens: Iterable<readonly [token: string, userId: string]>) {
    const entries: Entry[] = [];
    for (const [token, userId] of tokens) {
      // A blank token or user would let an empty header in, or name nobody: refused where configured too.
      if (token.trim() === '' || userId === '') throw new Error('A token and its user id must not be empty.');
      entries.push({ digest: tokenDigest(token), userId });
    }
    this.#entries = entries;
  }

  /** From a plain `token → user id` object: its own enumerable keys only. */
  static from(tokens: Readonly<Record<string, string>>): TokenTable {
    return new TokenTable(Object.entries(tokens));
  }

  get size(): number {
    return this.#entries.length;
  }

  /** The user whose token this is, or undefined. */
  userOf(token: string): string | undefined {
    const presented = tokenDigest(token);
    let userId: string | undefined;
    for (const entry of this.#entries) {
      if (timingSafeEqual(presented, entry.digest)) userId = entry.userId;
    }
    return userId;
  }

  /** Each configured token's digest with its user, for keys derived from tokens (session fingerprints). */
  *digests(): IterableIterator<readonly [digest: Buffer, userId: string]> {
    for (const entry of this.#entries) yield [entry.digest, entry.userId];
  }
}
