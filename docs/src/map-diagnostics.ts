import { relative, resolve } from 'node:path';
import { type SnippetModule, sourceOf } from './extract-snippets.ts';

const DIAGNOSTIC = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;

type Entry = { file: string; line: number; text: string[] };

/**
 * Rewrites `tsc --pretty false` output so each diagnostic of a snippet points at its markdown file, line and
 * column (`README.md:62:9 - error TS2304: ...`) and shows that line, sorted by file and line; other
 * diagnostics (in workspace sources the snippets import) keep their path, relative to the repository.
 */
export function mapDiagnostics(
  output: string,
  modules: readonly SnippetModule[],
  snippetDir: string,
  root: string,
  readLines: (file: string) => string[],
): { text: string; count: number } {
  const byPath = new Map(modules.map((module) => [resolve(snippetDir, module.name), module]));
  const entries: Entry[] = [];
  for (const line of output.split('\n')) {
    const match = DIAGNOSTIC.exec(line);
    if (!match) {
      // The rest of a message that spans lines, or what tsc says outside any file.
      if (line.trim()) {
        const last = entries.at(-1);
        if (last) last.text.push(line);
        else entries.push({ file: '', line: 0, text: [line] });
      }
      continue;
    }
    const [, path = '', moduleLine = '', column = '', severity, code, message] = match;
    const module = byPath.get(resolve(snippetDir, path));
    const at = module && sourceOf(module, Number(moduleLine), Number(column));
    if (at) {
      const source = readLines(at.file)[at.line - 1] ?? '';
      entries.push({
        file: at.file,
        line: at.line,
        text: [
          `${at.file}:${at.line}:${at.column} - ${severity} ${code}: ${message}`,
          `    ${source.trim()}`,
        ],
      });
    } else if (module) {
      const text = `${module.file}:${module.line} (end of the block) - ${severity} ${code}: ${message}`;
      entries.push({ file: module.file, line: module.line, text: [text] });
    } else {
      const file = relative(root, resolve(snippetDir, path));
      const text = `${file}:${moduleLine}:${column} - ${severity} ${code}: ${message}`;
      entries.push({ file, line: Number(moduleLine), text: [text] });
    }
  }
  entries.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return {
    text: entries.flatMap((entry) => entry.text).join('\n'),
    count: entries.filter((entry) => entry.file !== '').length,
  };
}
