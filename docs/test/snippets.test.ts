import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, SnippetSyntaxError, snippetModules, sourceOf } from '../src/extract-snippets.ts';
import { checkSnippets } from '../src/snippet-check.ts';

const md = (...lines: string[]) => lines.join('\n');

describe('extracting the TypeScript blocks of markdown', () => {
  it('takes ts and typescript blocks with their first line, and skips other languages and nested fences', () => {
    const blocks = codeBlocks(
      'a.md',
      md(
        '# Title',
        '```ts',
        'const a = 1;',
        '```',
        '````md',
        '```ts',
        'not code: inside a markdown example',
        '```',
        '````',
        '- a list item:',
        '  ```typescript',
        '  const b = 2;',
        '  ```',
        '```sh',
        'pnpm test',
        '```',
      ),
    );
    expect(blocks.map(({ line, indent, code }) => ({ line, indent, code }))).toEqual([
      { line: 3, indent: 0, code: 'const a = 1;' },
      { line: 12, indent: 2, code: 'const b = 2;' },
    ]);
  });

  it('joins continued blocks into the module before them and leaves nocheck blocks out', () => {
    const blocks = codeBlocks(
      'a.md',
      md(
        '```ts',
        'const a = 1;',
        '```',
        'text',
        '```ts continued',
        'a;',
        '```',
        '```ts nocheck shows a type error',
        'a = 2;',
        '```',
      ),
    );
    expect(blocks.at(-1)?.nocheck).toBe('shows a type error');
    const [module, ...others] = snippetModules(blocks);
    expect(others).toEqual([]);
    expect(module?.source).toBe('const a = 1;\na;\n\nexport {};\n');
    expect(module && sourceOf(module, 2, 1)).toEqual({ file: 'a.md', line: 6, column: 1 });
    expect(module && sourceOf(module, 4, 1)).toBeUndefined();
  });

  it('refuses a nocheck without a reason, an unknown info string and a continued block with nothing before', () => {
    expect(() => codeBlocks('a.md', md('```ts nocheck', 'x', '```'))).toThrow(
      "a.md:1: 'nocheck' needs a reason",
    );
    expect(() => codeBlocks('a.md', md('```ts continue', 'x', '```'))).toThrow(
      "a.md:1: unknown info string 'continue'",
    );
    expect(() => snippetModules(codeBlocks('a.md', md('```ts continued', 'x', '```')))).toThrow(
      SnippetSyntaxError,
    );
  });
});

describe('checking them', () => {
  const docs = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const root = mkdtempSync(join(tmpdir(), 'snippets-'));
  const outDir = join(docs, '.snippets-test');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  });
  // The workspace's own strict settings, which the packages the snippets import are written for.
  copyFileSync(join(docs, '..', 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));

  // Two whole compiler runs: on a loaded CI machine they can take well over vitest's default 5 s.
  it('compiles the blocks against the workspace packages and reports errors at the markdown line', {
    timeout: 120_000,
  }, () => {
    writeFileSync(
      join(root, 'README.md'),
      md(
        '# Example',
        '',
        '```ts',
        "import { definePlugin } from '@tessera/core';",
        "export const plugin = definePlugin({ id: 'ok' });",
        '```',
        '',
        '- then:',
        '  ```ts continued',
        '  const id: number = plugin.id;',
        '  ```',
        '```ts nocheck shows what does not compile',
        'const broken: number = "x";',
        '```',
      ),
    );
    const result = checkSnippets({ root, files: ['README.md'], outDir });
    expect(result.ok).toBe(false);
    expect(result.report).toContain(
      "README.md:10:9 - error TS2322: Type 'string' is not assignable to type 'number'.\n    const id: number = plugin.id;",
    );
    expect(result.report).toContain(
      '1 type error in 2 TypeScript blocks of 1 markdown file (1 marked nocheck)',
    );

    writeFileSync(
      join(root, 'README.md'),
      md('```ts', "import { definePlugin } from '@tessera/core';", "definePlugin({ id: 'ok' });", '```'),
    );
    expect(checkSnippets({ root, files: ['README.md'], outDir })).toEqual({
      ok: true,
      report: '1 TypeScript block of 1 markdown file compiles.',
    });
  });
});
