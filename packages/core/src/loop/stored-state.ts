import { z } from 'zod';
import { errorMessage, PluginStateError } from '../errors.ts';
import type { Conversation } from '../model/conversation.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';

/**
 * How a versioned plugin's state is stored in `conversation.pluginState[pluginId]`: its value with the version
 * it was written at, in the one entry (so a write stays one atomic `setPluginState`, and no store changes).
 * An unversioned plugin stores its value as it is, which reads as version 0.
 */
type Envelope = { $version: number; value: unknown };

function isEnvelope(raw: unknown): raw is Envelope {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const version = (raw as { $version?: unknown }).$version;
  if (!Number.isInteger(version) || (version as number) < 1) return false;
  return Object.keys(raw).every((key) => key === '$version' || key === 'value');
}

/** A stored entry's version and value: a bare value is version 0 (unversioned, or stored before versions). */
function unwrap(raw: unknown): { version: number; value: unknown } {
  return isEnvelope(raw) ? { version: raw.$version, value: raw.value } : { version: 0, value: raw };
}

/** The plugin's state version; 0 also for a plugin made by an older copy of core, which had none. */
const versionOf = (plugin: AnyPlugin): number => plugin.stateVersion ?? 0;

/** The entry to store for a plugin's (validated) state. */
export const wrapState = (plugin: AnyPlugin, value: unknown): unknown =>
  versionOf(plugin) > 0 ? ({ $version: versionOf(plugin), value } satisfies Envelope) : value;

/** Whether the stored entry was written at another version than the plugin's, so reading it migrates it. */
export const needsMigration = (plugin: AnyPlugin, raw: unknown): boolean =>
  raw !== undefined && unwrap(raw).version !== versionOf(plugin);

/** Validates a state value with the plugin's schema, or a `PluginStateError` saying when and why not. */
export function parseState(
  plugin: AnyPlugin,
  value: unknown,
  problem: string,
  versions?: { fromVersion: number; toVersion: number },
): unknown {
  const parsed = plugin.state.safeParse(value);
  if (!parsed.success) {
    throw new PluginStateError(plugin.id, `${problem}:\n${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
      ...versions,
    });
  }
  return parsed.data;
}

/**
 * A plugin's stored entry as its current state: migrated when it is older, then validated. A newer one
 * (the plugin was downgraded) and a migration that throws or gives invalid state are `PluginStateError`s
 * naming the plugin and both versions; nothing is written here, so the stored state stays as it was.
 */
export function readState(plugin: AnyPlugin, raw: unknown): unknown {
  const { version: fromVersion, value } = unwrap(raw);
  const toVersion = versionOf(plugin);
  if (raw === undefined || fromVersion === toVersion) {
    return parseState(plugin, value, 'the stored state does not match the schema');
  }
  const versions = { fromVersion, toVersion };
  if (fromVersion > toVersion) {
    throw new PluginStateError(
      plugin.id,
      `the stored state is version ${fromVersion}, newer than version ${toVersion} that this version of the plugin knows (was it downgraded?); it is left as it is.`,
      versions,
    );
  }
  let migrated: unknown;
  try {
    migrated = plugin.migrateState?.(value, fromVersion);
  } catch (error) {
    throw new PluginStateError(
      plugin.id,
      `migrating the stored state from version ${fromVersion} to ${toVersion} failed: ${errorMessage(error)}`,
      { cause: error, ...versions },
    );
  }
  if (migrated instanceof Promise) {
    throw new PluginStateError(
      plugin.id,
      `migrate() returned a promise when migrating from version ${fromVersion} to ${toVersion}; it must return the migrated state.`,
      versions,
    );
  }
  return parseState(
    plugin,
    migrated,
    `migrating the stored state from version ${fromVersion} to ${toVersion} gave a state that does not match the schema`,
    versions,
  );
}

/** A conversation as apps read it: each plugin's state without its storage envelope. */
export function presentConversation(conversation: Conversation): Conversation {
  const entries = Object.entries(conversation.pluginState);
  if (!entries.some(([, raw]) => isEnvelope(raw))) return conversation;
  const pluginState: Record<string, unknown> = {};
  for (const [id, raw] of entries) pluginState[id] = unwrap(raw).value;
  return { ...conversation, pluginState };
}
