import { readdir } from 'node:fs/promises';
import { createTool, DefinitionError, definePlugin } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import filesPluginFactory from '../src/index.ts';
import { errorMessageOf, tempDirectory } from './helpers.ts';

const exportTool = createTool({
  id: 'big.export',
  description: 'Exports two files.',
  input: z.object({}),
  invoke: async ({ addFileOutput }) => {
    await addFileOutput({ name: 'small.txt', content: 'fits' });
    await addFileOutput({ name: 'big.bin', content: new Uint8Array(2048) });
    return 'unreachable';
  },
});

describe('the default export, a plugin factory (what a config file names)', () => {
  it('gives filesPlugin the options: the directory and the limits', async () => {
    const directory = await tempDirectory();
    const t = await createTestPlatform({
      plugins: [
        filesPluginFactory({ directory, maxFileBytes: 1024 }),
        definePlugin({ id: 'app', tools: [exportTool] }),
      ],
      script: [callTool('big.export'), reply('Too big.')],
    });
    const prompt = await t.send('go');
    expect(errorMessageOf(prompt.output[0])).toBe(
      'File "big.bin" is larger than the limit of 1 KB; nothing was stored.',
    );
    // The small file went to this directory.
    expect((await readdir(directory)).filter((name) => name !== '.partial')).toHaveLength(1);
  });

  it('refuses invalid options, naming the plugin and every problem', () => {
    const error = (() => {
      try {
        filesPluginFactory({ maxFileBytes: 0, folder: '/tmp' } as never);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(DefinitionError.is(error)).toBe(true);
    expect(error?.message.split('\n')).toEqual([
      "Plugin 'files': its options are not valid:",
      '  - maxFileBytes: Too small: expected number to be >0',
      '  - (options): Unrecognized key: "folder"',
    ]);
  });
});
