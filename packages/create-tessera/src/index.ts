// create-tessera as a library: what `npm create tessera` runs, for tools and tests.

export { type PluginNames, pluginNames, UsageError } from './names.ts';
export { type Created, type CreateOptions, createTessera } from './scaffold.ts';
export { packagesFrom, readPackedManifest } from './tarballs.ts';
