import {
  type AnyTool,
  CONTEXT_ORDER,
  createTool,
  DefinitionError,
  definePlugin,
  type Platform,
  type Plugin,
  type PrepareContext,
} from '@tessera/core';
import { z } from 'zod';
import type { SkillDiagnostic } from './load-folder.ts';
import { readResource } from './read-resource.ts';
import type { CodeSkill, Skill } from './skill.ts';
import { SkillFolders } from './skill-folders.ts';

export const SkillsState = z.object({ active: z.array(z.string()).default([]) }).default({ active: [] });
export type SkillsState = z.output<typeof SkillsState>;

export type SkillsOptions = {
  /** Skill folders to scan (default `.agents/skills` and `.claude/skills`), relative to `cwd`. */
  directories?: readonly string[];
  cwd?: string;
  /** Skills from plugin packages. */
  skills?: readonly CodeSkill[];
  /** Activate a skill when the user's input starts with `/skill-name` (default true). */
  slashCommands?: boolean;
  /**
   * How often, at most, the skill folders are checked for changes, in milliseconds (default 1000). The check
   * reads modification times only (about 3 ms for 200 skills), so it is not repeated for every round of a fast
   * prompt; 0 checks before every round.
   */
  refreshInterval?: number;
  /** Largest resource `skills.read_resource` returns, in bytes (default 64 KiB). */
  maxResourceBytes?: number;
};

export type SkillsPlugin = {
  plugin: Plugin<SkillsState>;
  /** Every available skill, by name, as of the last refresh (every round refreshes). */
  readonly catalogue: ReadonlyMap<string, Skill>;
  /** Skills that were skipped (`error`) or loaded with a change (`warning`), and why, as of the last refresh. */
  readonly diagnostics: readonly SkillDiagnostic[];
  /** Reads what changed in the skill folders (an app calls it before listing the catalogue). */
  refresh(): Promise<void>;
  /** Activates a skill in a conversation on the user's behalf (outside a prompt). */
  activate(platform: Platform, conversationId: string, name: string): Promise<void>;
};

const describe = (skill: Skill) => `- ${skill.name}: ${skill.description}`;

/** `/skill-name` at the start of an input: a name as the Agent Skills rule has it, 1-64 characters. */
const SLASH_COMMAND = /^\/([a-z0-9-]{1,64})\b/;

function activeInstructions(skill: Skill): string {
  const lines = [`Skill "${skill.name}" is active. Its instructions:`, '', skill.instructions];
  if (skill.kind === 'folder' && skill.resources.length > 0) {
    lines.push(
      '',
      `Files of this skill (read them with skills.read_resource): ${skill.resources.join(', ')}`,
    );
  }
  return lines.join('\n');
}

type Catalogue = {
  skills: ReadonlyMap<string, Skill>;
  diagnostics: readonly SkillDiagnostic[];
  text: string;
  tools: { activate: AnyTool; deactivate: AnyTool; readResource: AnyTool } | undefined;
};

function skillTools(catalogue: ReadonlyMap<string, Skill>, maxBytes: number): Catalogue['tools'] {
  const names = [...catalogue.keys()];
  if (names.length === 0) return undefined;
  const Name = z.enum(names as [string, ...string[]]).describe('The skill, from the catalogue.');
  return {
    activate: createTool({
      id: 'skills.activate',
      description:
        'Activate a skill: its instructions (and any tools) become available from the next step on.',
      input: z.object({ name: Name }),
      state: SkillsState,
      invoke: async ({ input, state }) => {
        const already = state.get().active.includes(input.name);
        if (!already) await state.update((s) => ({ active: [...s.active, input.name] }));
        return { active: state.get().active, ...(already && { note: `${input.name} was already active.` }) };
      },
    }),
    deactivate: createTool({
      id: 'skills.deactivate',
      description: 'Deactivate a skill that is no longer needed.',
      input: z.object({ name: Name }),
      state: SkillsState,
      invoke: async ({ input, state }) => {
        await state.update((s) => ({ active: s.active.filter((n) => n !== input.name) }));
        return { active: state.get().active };
      },
    }),
    readResource: createTool({
      id: 'skills.read_resource',
      description: 'Read a text file of an active skill folder (a path listed in its instructions).',
      input: z.object({ name: Name, path: z.string().min(1).max(500) }),
      state: SkillsState,
      readOnly: true,
      invoke: ({ input, state }) => {
        const skill = catalogue.get(input.name);
        if (!state.get().active.includes(input.name))
          throw new Error(`Activate skill '${input.name}' first.`);
        if (skill?.kind !== 'folder') throw new Error(`Skill '${input.name}' has no files.`);
        return readResource(skill, input.path, maxBytes);
      },
    }),
  };
}

/**
 * The skills plugin: a catalogue of skills in the model's context, tools to activate and deactivate them,
 * and, while a skill is active, its full instructions and its tools. The active set is per conversation.
 * Skill folders are checked for changes (by modification time, at most every `refreshInterval`) before a
 * round, so an edited, added or removed skill shows up on the next round without a restart. Resolves once
 * the folders have been read, so `catalogue` and `diagnostics` are filled from the start.
 */
export async function createSkillsPlugin(options: SkillsOptions = {}): Promise<SkillsPlugin> {
  const skills = skillsWithFoldersUnread(options);
  await skills.refresh();
  return skills;
}

/**
 * The skills plugin before its folders are read: the first round (or `refresh()`) reads them. For the
 * package's plugin factory, which must make the plugin synchronously.
 */
export function skillsWithFoldersUnread(options: SkillsOptions = {}): SkillsPlugin {
  const codeSkills = options.skills ?? [];
  const ids = new Set<string>();
  for (const skill of codeSkills) {
    for (const tool of skill.tools) {
      if (ids.has(tool.id)) throw new DefinitionError(`Tool '${tool.id}' belongs to two skills.`);
      ids.add(tool.id);
    }
  }
  const folders = new SkillFolders(options.directories ?? ['.agents/skills', '.claude/skills'], options.cwd);
  const maxBytes = options.maxResourceBytes ?? 64 * 1024;

  const build = (): Catalogue => {
    const skills = new Map<string, Skill>();
    const diagnostics = [...folders.diagnostics];
    for (const skill of [...codeSkills, ...folders.skills]) {
      if (skills.has(skill.name)) {
        diagnostics.push({
          file: skill.kind === 'folder' ? `${skill.directory}/SKILL.md` : `code skill ${skill.name}`,
          severity: 'error',
          message: `skill '${skill.name}' is defined twice; the first one is kept`,
        });
      } else skills.set(skill.name, skill);
    }
    const text =
      skills.size > 0
        ? `Skills you can activate with skills.activate when a task needs one:\n${[...skills.values()].map(describe).join('\n')}`
        : '';
    return { skills, diagnostics, text, tools: skillTools(skills, maxBytes) };
  };
  const interval = options.refreshInterval ?? 1000;
  let current = build();
  let checkedAt = Number.NEGATIVE_INFINITY; // never: the first refresh reads the folders whatever the interval
  const refresh = async (maxAge = 0): Promise<Catalogue> => {
    if (performance.now() - checkedAt < maxAge) return current;
    if (await folders.refresh()) current = build();
    checkedAt = performance.now();
    return current;
  };

  async function prepare(ctx: PrepareContext<SkillsState>): Promise<void> {
    const { skills, text, tools } = await refresh(interval);
    if (!tools) return;
    // `/skill-name ...` at the start of the user's input activates that skill for them. A name is at most 64
    // characters, so the match reads at most 66 of the input, however long it is.
    const command =
      options.slashCommands !== false && ctx.round === 0 ? SLASH_COMMAND.exec(ctx.prompt.input ?? '') : null;
    if (command && skills.has(command[1]!) && !ctx.state.get().active.includes(command[1]!)) {
      await ctx.state.update((s) => ({ active: [...s.active, command[1]!] }));
    }
    ctx.context.push({ text, order: CONTEXT_ORDER.stable });
    ctx.tools.push(tools.activate, tools.deactivate);
    // A skill removed from disk while active simply drops out.
    const active = ctx.state.get().active.flatMap((name) => skills.get(name) ?? []);
    for (const skill of active) {
      ctx.context.push({ text: activeInstructions(skill), order: CONTEXT_ORDER.normal });
      if (skill.kind === 'code') ctx.tools.push(...skill.tools);
    }
    if (active.some((skill) => skill.kind === 'folder')) ctx.tools.push(tools.readResource);
  }

  const plugin = definePlugin({ id: 'skills', state: SkillsState, prepare });
  return {
    plugin,
    get catalogue() {
      return current.skills;
    },
    get diagnostics() {
      return current.diagnostics;
    },
    async refresh() {
      await refresh();
    },
    async activate(platform, conversationId, name) {
      if (!(await refresh()).skills.has(name)) throw new DefinitionError(`There is no skill '${name}'.`);
      const state = await platform.pluginState(conversationId, plugin);
      if (!state.get().active.includes(name)) await state.update((s) => ({ active: [...s.active, name] }));
    },
  };
}
