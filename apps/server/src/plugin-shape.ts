import { type AnyPlugin, isPlugin, isPluginFactory } from '@tessera/core';
import { ConfigError } from './config.ts';

/** A few words on what a value is, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (isPluginFactory(value)) return `the plugin factory of '${value.id}'`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 6);
    return keys.length > 0 ? `an object with ${keys.join(', ')}` : 'an empty object';
  }
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** What to do with a value given where a plugin belongs. */
export function pluginHint(value: unknown): string {
  if (isPluginFactory(value)) return 'call it with its options and pass what it returns';
  if (typeof value === 'function') {
    return 'it is a plugin factory, call it (e.g. `myPlugin({ ... })`) and pass what it returns';
  }
  const looksLikeOne =
    typeof (value as { id?: unknown } | null)?.id === 'string' &&
    Array.isArray((value as { tools?: unknown }).tools);
  return looksLikeOne
    ? 'pass what definePlugin returns itself (a copy, e.g. { ...plugin }, has not been checked by it)'
    : 'pass what definePlugin returns';
}

/** Checks an app's plugin list: each entry must be a plugin object (a factory must be called first). */
export function checkPlugins(plugins: readonly unknown[], where: string): AnyPlugin[] {
  const problems = plugins.flatMap((plugin, i) =>
    isPlugin(plugin) ? [] : [`  ${where}[${i}] is ${describe(plugin)}, not a plugin: ${pluginHint(plugin)}.`],
  );
  if (problems.length > 0) throw new ConfigError(`Not a plugin:\n${problems.join('\n')}`);
  return plugins as AnyPlugin[];
}
