/**
 * Type-checks every TypeScript code block of the READMEs and docs/*.md against the workspace packages,
 * strict, with the workspace's TypeScript, and reports errors at their markdown file and line. Run by the
 * docs package's `typecheck` (so by `pnpm test`), or alone with `pnpm check:snippets`.
 *
 * Info strings: ```ts continued (same module as the file's previous block), ```ts nocheck <reason>.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSnippets } from './snippet-check.ts';

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(docs, '..');

/** READMEs anywhere (test fixtures aside) and the pages of docs/, as git sees them (tracked or new, not deleted). */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /(^|\/)README\.md$/.test(file) || /^docs\/[^/]+\.md$/.test(file))
  .filter((file) => !file.includes('/fixtures/') && existsSync(join(root, file)))
  .sort();

// Inside the docs package, so the snippets resolve the workspace packages through its dependencies.
const { ok, report } = checkSnippets({ root, files, outDir: join(docs, '.snippets') });
if (ok) console.log(report);
else {
  console.error(report);
  process.exitCode = 1;
}
