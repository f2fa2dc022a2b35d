import type { AnyTool } from '@tessera/core';
import { DefinitionError } from '@tessera/core';
import { MAX_DESCRIPTION } from './shorten-description.ts';

/** `[a-z0-9-]`, 1–64 characters, no leading, trailing or double hyphen (the Agent Skills rule). */
export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A skill from a plugin package: its tools are offered only while it is active. */
export type CodeSkill = {
  kind: 'code';
  name: string;
  description: string;
  instructions: string;
  tools: readonly AnyTool[];
};

/** A skill folder in the Agent Skills format (`SKILL.md` and optional resources). */
export type FolderSkill = {
  kind: 'folder';
  name: string;
  /** As catalogued: an over-long one is cut to the Agent Skills limit (and reported in the diagnostics). */
  description: string;
  /** The body of SKILL.md, after the frontmatter. */
  instructions: string;
  /** The folder, as a real path (symlinks resolved). */
  directory: string;
  /** Resource files, relative to the folder, e.g. `references/api.md`. */
  resources: readonly string[];
  license?: string;
  compatibility?: string;
  allowedTools?: string;
  metadata?: Record<string, string>;
};

export type Skill = CodeSkill | FolderSkill;

export function defineSkill(
  definition: Omit<CodeSkill, 'kind' | 'tools'> & { tools?: readonly AnyTool[] },
): CodeSkill {
  const { name, description, instructions } = definition;
  if (typeof name !== 'string' || name.length > 64 || !SKILL_NAME.test(name)) {
    throw new DefinitionError(
      `Skill name '${String(name)}' is not valid: 1-64 of a-z, 0-9 and single hyphens.`,
    );
  }
  if (!description?.trim() || description.length > MAX_DESCRIPTION) {
    throw new DefinitionError(
      `Skill '${name}': a description of 1-${MAX_DESCRIPTION} characters is required.`,
    );
  }
  if (!instructions?.trim()) throw new DefinitionError(`Skill '${name}': instructions are required.`);
  return { kind: 'code', name, description, instructions, tools: definition.tools ?? [] };
}
