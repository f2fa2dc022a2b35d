// @tessera/server as a library: serve Tessera (API, event streams, web UI) with your own plugin set.
export type { ModelInfo } from './choose-model.ts';
export { ConfigError, type ServerConfig, type ServerSettings } from './config.ts';
export { defineConfig, type TesseraConfig } from './config-file.ts';
export { type CreateServerOptions, createServer, LOCAL_USER, type TesseraServer } from './create-server.ts';
/** The demo tools, for tests and demos that want them with another model (a real model never gets them by default). */
export { demoPlugin } from './demo/demo-plugin.ts';
export { type LoadedConfig, loadConfig } from './load-config.ts';
/** The scripted model a config names with `model: { script }`, for a config that builds its own. */
export { loadModelScript, type ScriptRule } from './model-script.ts';
export type { PluginEntry } from './plugin-packages.ts';
