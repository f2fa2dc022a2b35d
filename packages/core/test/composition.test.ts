import { readFileSync } from 'node:fs';
import { ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { type AnyPlugin, CORE_VERSION, createPlatform, DefinitionError, definePlugin } from '../src/index.ts';

const compose = (...plugins: AnyPlugin[]) => createPlatform({ model: new ScriptedModel(), plugins });

describe('createPlatform checks how plugins fit together', () => {
  it("knows core's version from its package.json", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(CORE_VERSION).toBe(manifest.version);
  });

  it('refuses a plugin that requires one that is not in the set, naming both', () => {
    const reports = definePlugin({ id: 'reports', version: '2.1.0', requires: ['mail'] });
    expect(() => compose(reports)).toThrow(DefinitionError);
    expect(() => compose(reports)).toThrow(
      "Plugin 'reports@2.1.0' requires plugin 'mail', which is not in this platform: add it to createPlatform({ plugins }).",
    );
    expect(() => compose(reports, definePlugin({ id: 'mail' }))).not.toThrow();
  });

  it('refuses plugins that require each other in a cycle, showing the cycle', () => {
    const a = definePlugin({ id: 'a', requires: ['b'] });
    const b = definePlugin({ id: 'b', requires: ['c'] });
    const c = definePlugin({ id: 'c', requires: ['a'] });
    expect(() => compose(a, b, c)).toThrow(
      "Plugins require each other in a cycle: 'a' → 'b' → 'c' → 'a'. One of them must not require the other.",
    );
    expect(() => definePlugin({ id: 'self', requires: ['self'] })).toThrow("Plugin 'self' requires itself.");
  });

  it("refuses a plugin whose core range does not include this core's version, naming the plugin, its range and core's version", () => {
    const old = definePlugin({ id: 'legacy', version: '0.3.0', core: '^99.0.0' });
    expect(() => compose(old)).toThrow(
      `Plugin 'legacy@0.3.0' works with @tessera/core ^99.0.0, but this is @tessera/core ${CORE_VERSION}`,
    );
    expect(() => compose(definePlugin({ id: 'current', core: `^${CORE_VERSION}` }))).not.toThrow();
    expect(() => compose(definePlugin({ id: 'wide', core: '>=0.1.0 <100' }))).not.toThrow();
  });

  it('refuses a core range or requires that cannot be read, when the plugin is defined', () => {
    expect(() => definePlugin({ id: 'p', core: 'the latest' })).toThrow(
      "Plugin 'p': core 'the latest' is not a semver range (e.g. '^0.1.0').",
    );
    expect(() => definePlugin({ id: 'p', requires: ['Not An Id'] })).toThrow(
      "Plugin 'p': requires must be an array of plugin ids.",
    );
    expect(() => definePlugin({ id: 'p', start: 'soon' as never })).toThrow(
      "Plugin 'p': start must be a function.",
    );
  });
});
