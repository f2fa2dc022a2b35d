import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { codeBlocks, SnippetSyntaxError, snippetModules } from './extract-snippets.ts';
import { mapDiagnostics } from './map-diagnostics.ts';

export type SnippetCheckOptions = {
  /** The repository root; `files` are relative to it. */
  root: string;
  /** The markdown files whose TypeScript blocks are checked. */
  files: readonly string[];
  /**
   * Where the modules are written (emptied first). It must resolve the packages the snippets import, so
   * it sits inside a package that depends on them, and its tsconfig extends the root's tsconfig.base.json.
   */
  outDir: string;
};

export type SnippetCheckResult = { ok: boolean; report: string };

/** The workspace's TypeScript compiler, as the package holding `outDir` resolves it. */
function typescriptCompiler(outDir: string): string {
  const manifest = createRequire(join(outDir, 'index.js')).resolve('typescript/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin.tsc!);
}

/** Extracts the TypeScript blocks of `files`, type-checks them in one strict program, and reports. */
export function checkSnippets({ root, files, outDir }: SnippetCheckOptions): SnippetCheckResult {
  let blocks: ReturnType<typeof codeBlocks>;
  let modules: ReturnType<typeof snippetModules>;
  try {
    blocks = files.flatMap((file) => codeBlocks(file, readFileSync(join(root, file), 'utf8')));
    modules = snippetModules(blocks);
  } catch (error) {
    if (error instanceof SnippetSyntaxError) return { ok: false, report: error.message };
    throw error;
  }

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const module of modules) writeFileSync(join(outDir, module.name), module.source);
  writeFileSync(
    join(outDir, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(outDir, join(root, 'tsconfig.base.json')),
      compilerOptions: { noEmit: true },
      include: ['*.ts'],
    }),
  );

  const run = spawnSync(process.execPath, [typescriptCompiler(outDir), '-p', outDir, '--pretty', 'false'], {
    cwd: outDir,
    encoding: 'utf8',
  });
  const diagnostics = mapDiagnostics(`${run.stdout}${run.stderr}`, modules, outDir, root, (file) =>
    readFileSync(join(root, file), 'utf8').split(/\r?\n/),
  );
  const skipped = blocks.filter((block) => block.nocheck !== undefined).length;
  const checked = blocks.length - skipped;
  const what =
    `${plural(checked, 'TypeScript block')} of ${plural(new Set(blocks.map((b) => b.file)).size, 'markdown file')}` +
    (skipped ? ` (${skipped} marked nocheck)` : '');
  if (run.status === 0 && diagnostics.count === 0) {
    return { ok: true, report: `${what} ${checked === 1 ? 'compiles' : 'compile'}.` };
  }
  const errors = diagnostics.count
    ? plural(diagnostics.count, 'type error')
    : `TypeScript failed (${run.status})`;
  return { ok: false, report: `${diagnostics.text}\n\n${errors} in ${what}; the modules are in ${outDir}.` };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
