import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AnyPlugin,
  type AnyTool,
  definePlugin,
  type PromptOutput,
  type ToolOutput,
} from '@tessera/core';
import { createTestPlatform, type TestPlatformOptions } from '@tessera/testing';
import { afterEach } from 'vitest';
import { type FilesPluginOptions, filesPlugin } from '../src/index.ts';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh store directory, removed after the test. */
export async function tempDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'tessera-files-test-'));
  directories.push(directory);
  return directory;
}

/** A test platform with the files plugin on a temporary directory, plus an app plugin with `tools`. */
export async function filesPlatform(
  tools: AnyTool[],
  options: Omit<TestPlatformOptions, 'plugins'> & { files?: FilesPluginOptions; plugins?: AnyPlugin[] } = {},
) {
  const { files, plugins = [], ...rest } = options;
  const directory = await tempDirectory();
  const t = await createTestPlatform({
    ...rest,
    plugins: [...plugins, filesPlugin({ directory, ...files }), definePlugin({ id: 'app', tools })],
  });
  const storedBlobs = async () => (await readdir(directory)).filter((name) => name !== '.partial');
  return { ...t, directory, storedBlobs };
}

export const resultOf = (output: PromptOutput | undefined) => (output as ToolOutput).result;
export const errorMessageOf = (output: PromptOutput | undefined) =>
  (resultOf(output) as { error: { message: string } }).error.message;
