import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, definePluginFactory, isPlugin, isPluginFactory } from '../src/index.ts';
import type * as plugins from '../src/plugins/define-plugin.ts';
import type * as factories from '../src/plugins/define-plugin-factory.ts';

/**
 * Second copies of the modules that make plugins and factories, as an app gets with two installs of
 * @tessera/core (a plugin package with its own): the query string makes each another module instance.
 */
const copy: typeof plugins = await import(
  new URL('../src/plugins/define-plugin.ts?copy', import.meta.url).href
);
const factoryCopy: typeof factories = await import(
  new URL('../src/plugins/define-plugin-factory.ts?copy', import.meta.url).href
);

const notes = definePlugin({ id: 'notes', state: z.object({ n: z.number().default(0) }).default({ n: 0 }) });
const notesFactory = definePluginFactory({
  id: 'notes',
  options: z.object({ max: z.number().default(10) }),
  create: () => definePlugin({ id: 'notes' }),
});

describe('isPlugin', () => {
  it('knows what definePlugin returned, of this copy of core or another', () => {
    expect(copy.definePlugin).not.toBe(definePlugin);
    expect(isPlugin(notes)).toBe(true);
    expect(isPlugin(copy.definePlugin({ id: 'theirs' }))).toBe(true);
    expect(copy.isPlugin(notes)).toBe(true);
    expect(isPlugin(notesFactory())).toBe(true);
  });

  it('refuses what only looks like a plugin: a spread copy, an object of the same shape, a factory', () => {
    expect(isPlugin({ ...notes })).toBe(false);
    expect(isPlugin({ id: 'notes', tools: [], outputs: [], requires: [], state: z.object({}) })).toBe(false);
    expect(isPlugin(notesFactory)).toBe(false);
    for (const value of [undefined, null, 'notes', 42, [], {}]) expect(isPlugin(value)).toBe(false);
  });
});

describe('isPluginFactory', () => {
  it('knows what definePluginFactory returned, of this copy of core or another', () => {
    const theirs = factoryCopy.definePluginFactory({
      id: 'theirs',
      options: z.object({}),
      create: () => definePlugin({ id: 'theirs' }),
    });
    expect(factoryCopy.definePluginFactory).not.toBe(definePluginFactory);
    expect(isPluginFactory(notesFactory)).toBe(true);
    expect(isPluginFactory(theirs)).toBe(true);
    expect(factoryCopy.isPluginFactory(notesFactory)).toBe(true);
  });

  it('refuses a hand-written function that returns a plugin, and a plugin', () => {
    const handWritten = Object.assign(() => notes, { id: 'notes', options: z.object({}) });
    expect(isPluginFactory(handWritten)).toBe(false);
    expect(isPluginFactory(notes)).toBe(false);
    for (const value of [undefined, null, {}, () => {}]) expect(isPluginFactory(value)).toBe(false);
  });
});
