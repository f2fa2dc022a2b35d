import { readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type FolderSkill, SKILL_NAME } from './skill.ts';

/** Why a skill folder was skipped (or a name collision resolved): which file, and what is wrong. */
export type SkillDiagnostic = { file: string; message: string };

export const RESOURCE_DIRS = ['scripts', 'references', 'assets'];
const MAX_RESOURCES = 200;

const Frontmatter = z.object({
  name: z.string().max(64).regex(SKILL_NAME, 'use 1-64 of a-z, 0-9 and single hyphens'),
  description: z.string().trim().min(1, 'a description is required').max(1024),
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

/** Reads one skill folder; a problem is a diagnostic, never a throw. */
export async function loadFolder(directory: string): Promise<FolderSkill | SkillDiagnostic> {
  const file = join(directory, 'SKILL.md');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { file, message: 'no SKILL.md in this folder' };
  }
  const parts = splitFrontmatter(text);
  if (!parts) return { file, message: 'SKILL.md does not start with YAML frontmatter (---)' };
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (error) {
    return { file, message: `the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  const parsed = Frontmatter.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { file, message: `frontmatter field '${issue.path.join('.') || '(root)'}': ${issue.message}` };
  }
  const folderName = directory.split(/[\\/]/).at(-1);
  if (parsed.data.name !== folderName) {
    return { file, message: `the name '${parsed.data.name}' does not match the folder name '${folderName}'` };
  }
  const real = await realpath(directory);
  return {
    kind: 'folder',
    name: parsed.data.name,
    description: parsed.data.description,
    instructions: parts.body.trim(),
    directory: real,
    resources: await listResources(real),
    ...(parsed.data.license && { license: parsed.data.license }),
    ...(parsed.data.compatibility && { compatibility: parsed.data.compatibility }),
    ...(parsed.data['allowed-tools'] && { allowedTools: parsed.data['allowed-tools'] }),
    ...(parsed.data.metadata && { metadata: parsed.data.metadata }),
  };
}
