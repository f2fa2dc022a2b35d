import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { MAX_DESCRIPTION, shortenDescription } from './shorten-description.ts';
import { type FolderSkill, SKILL_NAME } from './skill.ts';

/**
 * A problem found while loading skills: which file, and what is wrong. An `error` means the skill was skipped
 * (or, for a name collision, ignored); a `warning` means it was loaded all the same, as the message says.
 */
export type SkillDiagnostic = { file: string; message: string; severity: 'error' | 'warning' };

/** What one skill folder gives: the skill unless it cannot be loaded, and what was wrong with it. */
export type FolderLoad = { skill?: FolderSkill; diagnostics: SkillDiagnostic[] };

export const RESOURCE_DIRS = ['scripts', 'references', 'assets'];
const MAX_RESOURCES = 200;

const Frontmatter = z.object({
  name: z.string().max(64).regex(SKILL_NAME, 'use 1-64 of a-z, 0-9 and single hyphens'),
  // Over the limit is only a warning: the clients people use load such skills (Anthropic's `claude-api`).
  description: z.string().trim().min(1, 'a description is required'),
  license: z.string().optional(),
  compatibility: z.string().max(500).optional(),
  metadata: z.record(z.string(), z.coerce.string()).optional(),
  'allowed-tools': z.string().optional(),
});

/** Splits `---\nyaml\n---\nbody`; undefined when the file does not start with frontmatter. */
function splitFrontmatter(text: string): { yaml: string; body: string } | undefined {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  return match ? { yaml: match[1]!, body: match[2]! } : undefined;
}

async function listResources(directory: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_RESOURCES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(relative(directory, path).split('\\').join('/'));
    }
  };
  for (const sub of RESOURCE_DIRS) await walk(join(directory, sub));
  return found;
}

class NotAFile extends Error {}

/**
 * SKILL.md's text, opened without blocking: a named pipe would otherwise wait for a writer for ever, and with it
 * every refresh of the catalogue (GET /api/skills, each prompt's round).
 */
async function readSkillFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new NotAFile();
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Reads one skill folder; a problem is a diagnostic, never a throw. */
export async function loadFolder(directory: string): Promise<FolderLoad> {
  const file = join(directory, 'SKILL.md');
  const skipped = (message: string): FolderLoad => ({ diagnostics: [{ file, message, severity: 'error' }] });
  let text: string;
  try {
    text = await readSkillFile(file);
  } catch (error) {
    return skipped(error instanceof NotAFile ? 'SKILL.md is not a file' : 'no SKILL.md in this folder');
  }
  const parts = splitFrontmatter(text);
  if (!parts) return skipped('SKILL.md does not start with YAML frontmatter (---)');
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (error) {
    return skipped(`the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = Frontmatter.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return skipped(`frontmatter field '${issue.path.join('.') || '(root)'}': ${issue.message}`);
  }
  const folderName = directory.split(/[\\/]/).at(-1);
  if (parsed.data.name !== folderName) {
    return skipped(`the name '${parsed.data.name}' does not match the folder name '${folderName}'`);
  }
  const diagnostics: SkillDiagnostic[] = [];
  const { description } = parsed.data;
  if (description.length > MAX_DESCRIPTION) {
    diagnostics.push({
      file,
      severity: 'warning',
      message: `the description has ${description.length} characters, over the limit of ${MAX_DESCRIPTION}; the skill is loaded with its description shortened in the catalogue`,
    });
  }
  const real = await realpath(directory);
  const skill: FolderSkill = {
    kind: 'folder',
    name: parsed.data.name,
    description: shortenDescription(description),
    instructions: parts.body.trim(),
    directory: real,
    resources: await listResources(real),
    ...(parsed.data.license && { license: parsed.data.license }),
    ...(parsed.data.compatibility && { compatibility: parsed.data.compatibility }),
    ...(parsed.data['allowed-tools'] && { allowedTools: parsed.data['allowed-tools'] }),
    ...(parsed.data.metadata && { metadata: parsed.data.metadata }),
  };
  return { skill, diagnostics };
}
