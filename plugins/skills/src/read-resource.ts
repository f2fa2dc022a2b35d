import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FolderSkill } from './skill.ts';

export class ResourceError extends Error {}

/**
 * The text of a file inside a skill folder. Refused: absolute paths, `..`, anything that resolves (through
 * symlinks) outside the folder, binary files, and files over `maxBytes`.
 */
export async function readResource(skill: FolderSkill, path: string, maxBytes: number): Promise<string> {
  if (isAbsolute(path) || path.split(/[\\/]/).includes('..') || path.includes('\0')) {
    throw new ResourceError(
      `'${path}' is not a path inside the skill folder: use a relative path such as 'references/guide.md'.`,
    );
  }
  let real: string;
  try {
    real = await realpath(resolve(skill.directory, path));
  } catch {
    throw new ResourceError(
      `There is no file '${path}' in skill '${skill.name}'. Its files: ${skill.resources.join(', ') || 'none'}.`,
    );
  }
  const inside = relative(skill.directory, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new ResourceError(`'${path}' leads outside the folder of skill '${skill.name}'.`);
  }
  // Non-blocking: opening a named pipe would otherwise wait for a writer, for ever, holding a thread of the
  // pool that every file operation of the process shares. A regular file reads as usual.
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new ResourceError(`'${path}' is not a file.`);
    if (info.size > maxBytes)
      throw new ResourceError(`'${path}' is ${info.size} bytes, over the limit of ${maxBytes}.`);
    const bytes = new Uint8Array(info.size);
    await handle.read(bytes, 0, info.size, 0);
    if (bytes.includes(0)) throw new ResourceError(`'${path}' is a binary file; only text can be read.`);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ResourceError(`'${path}' is not UTF-8 text.`);
    }
  } finally {
    await handle.close();
  }
}
