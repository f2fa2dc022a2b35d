import { DefinitionError } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import skillsPluginFactory, { defineSkill } from '../src/index.ts';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;

const review = defineSkill({
  name: 'code-review',
  description: 'Review a change.',
  instructions: 'Read the diff twice.',
});

describe('the default export, a plugin factory (what a config file names)', () => {
  it('makes the plugin at once; it reads the skill folders at its first round', async () => {
    const plugin = skillsPluginFactory({ directories: ['skills'], cwd: fixtures, skills: [review] });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('skills.activate', { name: 'pdf-processing' }), reply('ok')],
    });
    await t.send('Pull the tables out of this PDF');
    const [first, second] = t.model.requests;
    expect(first!.instructions).toContain('- code-review: Review a change.');
    expect(first!.instructions).toContain('- pdf-processing: Extract text and tables from PDF files');
    expect(second!.instructions).toContain('Skill "pdf-processing" is active.');
  });

  it('refuses invalid options, naming the plugin and every problem', () => {
    const error = (() => {
      try {
        skillsPluginFactory({ directories: 'skills', skills: [{ name: 'x' }] } as never);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(DefinitionError.is(error)).toBe(true);
    expect(error?.message.split('\n')).toEqual([
      "Plugin 'skills': its options are not valid:",
      '  - directories: Invalid input: expected array, received string',
      '  - skills.0: expected a skill from defineSkill',
    ]);
  });
});
