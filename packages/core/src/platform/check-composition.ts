import { DefinitionError } from '../errors.ts';
import { lazyRequire } from '../lazy-require.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import { type AnyPlugin, pluginLabel } from '../plugins/define-plugin.ts';
import { CORE_VERSION } from '../version.ts';

/**
 * Checks a platform's plugins once, at start-up, each problem a `DefinitionError` naming the plugin: unique
 * plugin ids, output types and static tool ids; every plugin's `core` range met by this core; every
 * `requires` in the set, without cycles. Registers the output variants, and returns the order plugins start
 * in: the given order, except that a plugin comes after those it requires.
 */
export function checkComposition(plugins: readonly AnyPlugin[], outputs: OutputRegistry): AnyPlugin[] {
  const byId = new Map<string, AnyPlugin>();
  const toolOwners = new Map<string, string>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw new DefinitionError(`Two plugins have the id '${plugin.id}'.`);
    byId.set(plugin.id, plugin);
    checkCoreRange(plugin);
    for (const variant of plugin.outputs) outputs.register(variant, plugin.id);
    for (const tool of plugin.tools) {
      const owner = toolOwners.get(tool.id);
      if (owner) {
        throw new DefinitionError(
          `Tool id '${tool.id}' is defined twice: by plugin '${owner}' and by plugin '${plugin.id}'.`,
        );
      }
      toolOwners.set(tool.id, plugin.id);
    }
  }
  return startOrder(plugins, byId);
}

function checkCoreRange(plugin: AnyPlugin): void {
  if (plugin.core === undefined) return;
  // One function's module rather than all of semver, loaded only when a plugin declares a core range.
  const satisfies: typeof import('semver/functions/satisfies.js') = lazyRequire(
    'semver/functions/satisfies.js',
  );
  if (!satisfies(CORE_VERSION, plugin.core, { includePrerelease: true })) {
    throw new DefinitionError(
      `Plugin '${pluginLabel(plugin)}' works with @tessera/core ${plugin.core}, but this is @tessera/core ${CORE_VERSION}: use a version of the plugin made for this core, or a core in its range.`,
    );
  }
}

/** Depth-first, in the given order: each plugin after what it requires; a requirement met again on the path is a cycle. */
function startOrder(plugins: readonly AnyPlugin[], byId: ReadonlyMap<string, AnyPlugin>): AnyPlugin[] {
  const order: AnyPlugin[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (plugin: AnyPlugin) => {
    if (done.has(plugin.id)) return;
    const onPath = path.indexOf(plugin.id);
    if (onPath >= 0) {
      const cycle = [...path.slice(onPath), plugin.id].map((id) => `'${id}'`).join(' → ');
      throw new DefinitionError(
        `Plugins require each other in a cycle: ${cycle}. One of them must not require the other.`,
      );
    }
    path.push(plugin.id);
    for (const id of plugin.requires ?? []) {
      const required = byId.get(id);
      if (!required) {
        throw new DefinitionError(
          `Plugin '${pluginLabel(plugin)}' requires plugin '${id}', which is not in this platform: add it to createPlatform({ plugins }).`,
        );
      }
      visit(required);
    }
    path.pop();
    done.add(plugin.id);
    order.push(plugin);
  };
  for (const plugin of plugins) visit(plugin);
  return order;
}
