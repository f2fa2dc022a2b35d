export type { SkillDiagnostic } from './load-folder.ts';
export { createSkillsPlugin, type SkillsOptions, type SkillsPlugin, SkillsState } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-skills", "options": {...} }`. */
export { skillsPluginFactory as default } from './plugin-factory.ts';
export { ResourceError, readResource } from './read-resource.ts';
export { type CodeSkill, defineSkill, type FolderSkill, SKILL_NAME, type Skill } from './skill.ts';
export { loadSkillFolders, SkillFolders } from './skill-folders.ts';
