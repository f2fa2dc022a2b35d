import { type Dirent, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type FolderLoad, loadFolder, RESOURCE_DIRS, type SkillDiagnostic } from './load-folder.ts';
import type { FolderSkill } from './skill.ts';

type Loaded = { signature: string; result: FolderLoad };
type Root = { path: string; signature: string; folders: string[] };

/** What identifies a version of a file or folder: a rename, an edit or an added entry changes it. */
// Synchronous on purpose: a thousand stat calls take ~3 ms this way and ~20 ms through the thread pool.
function signatureOf(path: string): string {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? `${stats.ino}:${stats.mtimeMs}:${stats.size}` : '-';
}

/** A skill folder changes when SKILL.md is edited or a file is added to or removed from its resource folders. */
const folderSignature = (folder: string) =>
  [folder, join(folder, 'SKILL.md'), ...RESOURCE_DIRS.map((d) => join(folder, d))].map(signatureOf).join('|');

async function listFolders(root: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(root, entry.name);
    const isFolder =
      entry.isDirectory() ||
      (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory());
    if (isFolder) folders.push(path);
  }
  return folders;
}

/**
 * Skill directories, kept in step with the disk: `refresh()` looks at the modification times of each
 * directory, skill folder, SKILL.md and resource folder, and reads again only what changed. Scanning is
 * lenient like the reference clients: a skill that cannot be loaded is skipped with an error diagnostic, one
 * with an over-long description is kept with a warning; of two skills with one name
 * the first directory's wins and the other is reported; a missing directory is simply empty.
 */
export class SkillFolders {
  readonly #roots: Root[];
  readonly #loaded = new Map<string, Loaded>();
  #refreshing: Promise<boolean> | undefined;
  skills: readonly FolderSkill[] = [];
  diagnostics: readonly SkillDiagnostic[] = [];

  constructor(directories: readonly string[], cwd = process.cwd()) {
    this.#roots = directories.map((d) => ({ path: resolve(cwd, d), signature: '', folders: [] }));
  }

  /** Reads what changed on disk since the last call; true when the skills or diagnostics changed. */
  refresh(): Promise<boolean> {
    // Concurrent rounds share one scan.
    this.#refreshing ??= this.#scan().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #scan(): Promise<boolean> {
    let changed = false;
    for (const root of this.#roots) {
      const signature = signatureOf(root.path);
      if (signature === root.signature) continue;
      root.signature = signature;
      const folders = await listFolders(root.path);
      changed ||= folders.join('\n') !== root.folders.join('\n');
      root.folders = folders;
    }
    const present = new Set(this.#roots.flatMap((root) => root.folders));
    for (const folder of this.#loaded.keys()) {
      if (!present.has(folder)) this.#loaded.delete(folder);
    }
    for (const folder of present) {
      const signature = folderSignature(folder);
      if (this.#loaded.get(folder)?.signature === signature) continue;
      this.#loaded.set(folder, { signature, result: await loadFolder(folder) });
      changed = true;
    }
    if (changed) this.#merge();
    return changed;
  }

  #merge(): void {
    const skills = new Map<string, FolderSkill>();
    const diagnostics: SkillDiagnostic[] = [];
    for (const folder of this.#roots.flatMap((root) => root.folders)) {
      const { skill, diagnostics: found } = this.#loaded.get(folder)!.result;
      diagnostics.push(...found);
      if (!skill) continue;
      if (skills.has(skill.name)) {
        diagnostics.push({
          file: join(folder, 'SKILL.md'),
          severity: 'error',
          message: `skill '${skill.name}' is already loaded from ${skills.get(skill.name)!.directory}; this one is ignored`,
        });
      } else skills.set(skill.name, skill);
    }
    this.skills = [...skills.values()];
    this.diagnostics = diagnostics;
  }
}

/** Scans skill directories once (see `SkillFolders` for the rules). */
export async function loadSkillFolders(
  directories: readonly string[],
  cwd = process.cwd(),
): Promise<{ skills: FolderSkill[]; diagnostics: SkillDiagnostic[] }> {
  const folders = new SkillFolders(directories, cwd);
  await folders.refresh();
  return { skills: [...folders.skills], diagnostics: [...folders.diagnostics] };
}
