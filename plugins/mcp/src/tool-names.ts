import { createHash } from 'node:crypto';

/** Core's tool id rule: what every provider can be given (the OpenAI provider maps `.` itself). */
const MAX_ID = 64;
const OUTSIDE_ID = /[^a-zA-Z0-9_.-]/g;

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 6);

/**
 * The Tessera ids of a server's tools, `server.tool`, in the order given: characters a tool id cannot hold
 * become `_`, a name too long is cut and given a hash of the whole, and a name already taken (two names that
 * differ only in such characters) gets a hash of its own name. The same list always gives the same ids, so a
 * call waiting for approval finds its tool again after a restart.
 */
export function toolIds(server: string, names: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    let id = fit(`${server}.${name.replace(OUTSIDE_ID, '_')}`, name);
    if (taken.has(id)) id = fit(`${id.slice(0, MAX_ID - 7)}_${shortHash(name)}`, name);
    for (let n = 2; taken.has(id); n++) id = `${id.slice(0, MAX_ID - String(n).length - 1)}_${n}`;
    taken.add(id);
    ids.set(name, id);
  }
  return ids;
}

function fit(id: string, name: string): string {
  return id.length <= MAX_ID ? id : `${id.slice(0, MAX_ID - 7)}_${shortHash(name)}`;
}
