export { loadSkillFolders, type SkillDiagnostic } from './load-folders.ts';
export { createSkillsPlugin, type SkillsOptions, type SkillsPlugin, SkillsState } from './plugin.ts';
export { ResourceError, readResource } from './read-resource.ts';
export { type CodeSkill, defineSkill, type FolderSkill, SKILL_NAME, type Skill } from './skill.ts';
