import { DefinitionError } from '@tessera/core';
import { createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import triggersPluginFactory, { ManualClock } from '../src/index.ts';

describe('the default export, a plugin factory (what a config file names)', () => {
  it('gives triggersPlugin the options', async () => {
    const clock = new ManualClock('2026-11-22T09:30:00Z');
    const t = await createTestPlatform({
      plugins: [triggersPluginFactory({ clock, defaultTimeZone: 'Europe/Paris', scheduler: false })],
      script: [reply('ok')],
    });
    await t.send('What time is it?');
    expect(t.model.requests[0]!.instructions).toContain('in Europe/Paris, the default time zone');
    await t.platform.open();
    expect(clock.pendingTimers()).toEqual([]); // scheduler: false
    await t.platform.close();
  });

  it('refuses invalid options, naming the plugin and every problem', () => {
    const problems = (options: unknown) => {
      try {
        triggersPluginFactory(options as never);
      } catch (error) {
        expect(DefinitionError.is(error)).toBe(true);
        return (error as Error).message.split('\n');
      }
    };
    expect(problems({ historyLimit: 0, scheduler: { rescanEvery: 10 } })).toEqual([
      "Plugin 'triggers': its options are not valid:",
      '  - historyLimit: Too small: expected number to be >0',
      '  - scheduler: Unrecognized key: "rescanEvery"',
    ]);
    expect(problems({ defaultTimeZone: 'Mars/Olympus' })).toEqual([
      "Plugin 'triggers': unknown defaultTimeZone 'Mars/Olympus'.",
    ]);
  });
});
