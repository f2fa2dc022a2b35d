import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// `pnpm test` runs no `build`: this proves the package still builds (declarations included) as it is published.
const outDir = mkdtempSync(join(tmpdir(), 'notes-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

// A whole compiler run: on a loaded CI machine it can take well over vitest's default 5 s.
it('builds to JavaScript and declarations, with .js imports', { timeout: 120_000 }, () => {
  const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
  const tsc = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.tsc);
  const project = join(import.meta.dirname, '../tsconfig.build.json');
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', outDir], { stdio: 'pipe' });
  expect(readFileSync(join(outDir, 'index.js'), 'utf8')).toContain("from './plugin.js'");
  expect(readFileSync(join(outDir, 'index.d.ts'), 'utf8')).toContain('notesPlugin as default');
  expect(readFileSync(join(outDir, 'saved-output.d.ts'), 'utf8')).toContain("'notes.saved': OutputOf<");
});
