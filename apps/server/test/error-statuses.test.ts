import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_FAULTS, STATUS } from '../src/http/errors.ts';
import { testServer } from './harness.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** `.ts` files under `dir`, tests left out. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every code that core, the stores and the built-in plugins throw: `new TesseraError('code'`, `super('code'`. */
async function thrownCodes(): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const folder of ['packages', 'plugins']) {
    for (const pkg of await readdir(join(ROOT, folder))) {
      const src = join(ROOT, folder, pkg, 'src');
      for (const file of await sources(src).catch(() => [])) {
        const text = await readFile(file, 'utf8');
        for (const [, code] of text.matchAll(/(?:TesseraError|super)\(\s*'([a-z_]+)'/g))
          codes.set(code!, `${folder}/${pkg}`);
      }
    }
  }
  return codes;
}

describe('every error code thrown on purpose has a status of its own', () => {
  it('lists them from the sources: each maps to a status, or is a server fault (500)', async () => {
    const codes = await thrownCodes();
    // The listing finds what it should (else this test could pass by finding nothing).
    for (const known of ['invalid_file_name', 'invalid_media_type', 'widget_data_invalid', 'not_found'])
      expect(codes.has(known)).toBe(true);
    const unmapped = [...codes].filter(([code]) => !Object.hasOwn(STATUS, code) && !SERVER_FAULTS.has(code));
    expect(unmapped).toEqual([]);
    // What a built-in plugin throws is the client's to fix (4xx), but for a dependency that failed (5xx).
    const plugins = [...codes].filter(
      ([code, where]) => where.startsWith('plugins/') && Object.hasOwn(STATUS, code),
    );
    for (const [code] of plugins) {
      if (code.startsWith('mcp_')) expect(STATUS[code]).toBeGreaterThanOrEqual(502);
      else expect([code, STATUS[code]! < 500]).toEqual([code, true]);
    }
  });
});

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a send with a bad file is refused before anything is stored', () => {
  it('answers 400 for an unusable name or media type, storing no prompt and no file', async () => {
    t = await testServer('demo model');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    // The bytes of stored files (the store's folder for partial writes left aside).
    const storedFiles = async () =>
      (await readdir(join(t!.dataDir, 'files'), { withFileTypes: true }).catch(() => []))
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    const before = await storedFiles();
    const cases: [string, string, string][] = [
      ['..', 'text/plain', 'invalid_file_name'],
      ['.', 'text/plain', 'invalid_file_name'],
      ['a/', 'text/plain', 'invalid_file_name'],
      ['   ', 'text/plain', 'invalid_file_name'],
      ['notes.txt', 'garbage', 'invalid_media_type'],
    ];
    for (const [name, type, code] of cases) {
      const form = new FormData();
      form.set('input', 'here');
      form.append('files', new File(['fine'], 'fine.txt', { type: 'text/plain' })); // stored first, before
      form.append('files', new File(['bad'], name, { type }));
      const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { form });
      expect([name, sent.status, sent.body.error?.code]).toEqual([name, 400, code]);
    }
    expect((await t.request('GET', `/api/conversations/${conversation.id}`)).body.prompts).toEqual([]);
    expect(await storedFiles()).toEqual(before);
  });
});
