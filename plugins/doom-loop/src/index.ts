/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-doom-loop", "options": {...} }`. */
export { DoomLoopOptions, doomLoopPlugin, doomLoopPlugin as default } from './plugin.ts';
