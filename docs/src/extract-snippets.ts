/**
 * Turns the TypeScript code blocks of markdown files into modules to type-check, remembering where each
 * line came from so errors can point at the markdown.
 *
 * The info string of a block says how it is checked:
 * - ```ts (or ```typescript): a module of its own;
 * - ```ts continued: appended to the file's previous checked block (same module, so it sees its names);
 * - ```ts nocheck <reason>: not checked; the reason is required (use it for code that must not compile).
 */

export type CodeBlock = {
  file: string;
  /** 1-based line of the block's first code line in the markdown file. */
  line: number;
  /** Columns of indentation removed from every line (blocks inside list items). */
  indent: number;
  code: string;
  continued: boolean;
  /** Why the block is not checked; undefined for checked blocks. */
  nocheck?: string;
};

/** A run of module lines that came from one block. */
export type Segment = { moduleLine: number; lines: number; file: string; line: number; indent: number };

export type SnippetModule = {
  /** File name of the module, unique across the markdown files. */
  name: string;
  file: string;
  line: number;
  source: string;
  segments: Segment[];
};

export class SnippetSyntaxError extends Error {
  override name = 'SnippetSyntaxError';
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$/;
const TYPESCRIPT = new Set(['ts', 'typescript']);

/** Every fenced block of TypeScript in one markdown file, in order. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const [, spaces = '', fence = '', language = '', rest = ''] = open;
    const fenceChar = fence[0]!;
    let end = index + 1;
    const closes = (text: string) => {
      const trimmed = text.trim();
      return trimmed.length >= fence.length && [...trimmed].every((c) => c === fenceChar);
    };
    while (end < lines.length && !closes(lines[end]!)) end++;
    if (TYPESCRIPT.has(language.toLowerCase())) {
      const body = lines.slice(index + 1, end).map((text) => stripIndent(text, spaces.length));
      blocks.push({
        file,
        line: index + 2,
        indent: spaces.length,
        code: body.join('\n'),
        ...infoFlags(file, index + 1, rest),
      });
    }
    index = end;
  }
  return blocks;
}

const stripIndent = (text: string, indent: number) => {
  let cut = 0;
  while (cut < indent && text[cut] === ' ') cut++;
  return text.slice(cut);
};

function infoFlags(file: string, line: number, info: string): { continued: boolean; nocheck?: string } {
  const words = info.split(/\s+/).filter(Boolean);
  if (words[0] === 'nocheck') {
    const reason = words.slice(1).join(' ');
    if (!reason) {
      throw new SnippetSyntaxError(
        `${file}:${line}: 'nocheck' needs a reason, e.g. \`\`\`ts nocheck shows an error`,
      );
    }
    return { continued: false, nocheck: reason };
  }
  if (words.length === 0) return { continued: false };
  if (words.length === 1 && words[0] === 'continued') return { continued: true };
  throw new SnippetSyntaxError(
    `${file}:${line}: unknown info string '${info}' (use nothing, 'continued', or 'nocheck <reason>')`,
  );
}

/** The modules to check: one per block, with `continued` blocks appended to the one before. */
export function snippetModules(blocks: readonly CodeBlock[]): SnippetModule[] {
  const modules: SnippetModule[] = [];
  const lastOfFile = new Map<string, SnippetModule>();
  for (const block of blocks) {
    if (block.nocheck !== undefined) continue;
    let module = block.continued ? lastOfFile.get(block.file) : undefined;
    if (block.continued && !module) {
      throw new SnippetSyntaxError(
        `${block.file}:${block.line - 1}: a 'continued' block needs a checked block before it in the same file`,
      );
    }
    if (!module) {
      module = {
        name: `${block.file.replace(/[^A-Za-z0-9]+/g, '_')}_L${block.line}.ts`,
        file: block.file,
        line: block.line,
        source: '',
        segments: [],
      };
      modules.push(module);
      lastOfFile.set(block.file, module);
    }
    const lines = block.code.split('\n');
    const moduleLine = module.source === '' ? 1 : module.source.split('\n').length + 1;
    module.source += (module.source === '' ? '' : '\n') + block.code;
    module.segments.push({
      moduleLine,
      lines: lines.length,
      file: block.file,
      line: block.line,
      indent: block.indent,
    });
  }
  // Every block is a module, even without imports: its names stay its own, and top-level await works.
  for (const module of modules) module.source += '\n\nexport {};\n';
  return modules;
}

/** Where a line and column of a module came from in the markdown, or undefined for the added lines. */
export function sourceOf(
  module: SnippetModule,
  moduleLine: number,
  column: number,
): { file: string; line: number; column: number } | undefined {
  const segment = module.segments.find(
    (s) => moduleLine >= s.moduleLine && moduleLine < s.moduleLine + s.lines,
  );
  if (!segment) return undefined;
  return {
    file: segment.file,
    line: segment.line + moduleLine - segment.moduleLine,
    column: column + segment.indent,
  };
}
