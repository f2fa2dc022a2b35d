import type { AnyPlugin } from '@tessera/core';
import { ConfigError } from './config.ts';

/** A plugin as `definePlugin` returns it (checked by shape: a plugin may come from another copy of core). */
export function isPlugin(value: unknown): value is AnyPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof AnyPlugin, unknown>>;
  return (
    typeof candidate.id === 'string' &&
    Array.isArray(candidate.tools) &&
    Array.isArray(candidate.outputs) &&
    typeof (candidate.state as { safeParse?: unknown } | undefined)?.safeParse === 'function'
  );
}

/** A few words on what a value is, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 6);
    return keys.length > 0 ? `an object with ${keys.join(', ')}` : 'an empty object';
  }
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Checks an app's plugin list: each entry must be a plugin object (a factory must be called first). */
export function checkPlugins(plugins: readonly unknown[], where: string): AnyPlugin[] {
  const problems = plugins.flatMap((plugin, i) => {
    if (isPlugin(plugin)) return [];
    const hint =
      typeof plugin === 'function'
        ? ': it is a plugin factory, call it (e.g. `myPlugin({ ... })`) and pass what it returns'
        : ': pass what definePlugin returns';
    return [`  ${where}[${i}] is ${describe(plugin)}, not a plugin${hint}.`];
  });
  if (problems.length > 0) throw new ConfigError(`Not a plugin:\n${problems.join('\n')}`);
  return plugins as AnyPlugin[];
}
