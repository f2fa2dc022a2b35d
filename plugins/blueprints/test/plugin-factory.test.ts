import { DefinitionError } from '@tessera/core';
import { createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import blueprintsPluginFactory, { blueprintService } from '../src/index.ts';
import { FIXTURE_BLUEPRINTS } from './fixtures.ts';

/** The blueprints put into the context of a prompt about TLS certificates. */
async function inContext(plugin: ReturnType<typeof blueprintsPluginFactory>) {
  const t = await createTestPlatform({ plugins: [plugin], script: [reply('ok')] });
  for (const blueprint of FIXTURE_BLUEPRINTS)
    await blueprintService(t.platform.services).save(t.userId, blueprint);
  await t.send('Our TLS certificate expires next week, renew it');
  return t.model.requests[0]!.instructions.split('\n').filter((line) => line.startsWith('- '));
}

describe('the default export, a plugin factory (what a config file names)', () => {
  it('gives blueprintsPlugin the options', async () => {
    expect(await inContext(blueprintsPluginFactory())).toHaveLength(2);
    expect(await inContext(blueprintsPluginFactory({ maxInContext: 1 }))).toEqual([
      expect.stringContaining('Renew the TLS certificates'),
    ]);
    expect(await inContext(blueprintsPluginFactory({ minScore: 1_000 }))).toEqual([]);
  });

  it('refuses invalid options, naming the plugin and every problem', () => {
    const error = (() => {
      try {
        blueprintsPluginFactory({ minScore: 'high' } as never);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(DefinitionError.is(error)).toBe(true);
    expect(error?.message.split('\n')).toEqual([
      "Plugin 'blueprints': its options are not valid:",
      '  - minScore: Invalid input: expected number, received string',
    ]);
  });
});
