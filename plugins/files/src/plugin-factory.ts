import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import type { FileStore } from './file-store.ts';
import { filesPlugin } from './plugin.ts';

const isFileStore = (value: unknown): value is FileStore =>
  ['put', 'read', 'stream', 'delete'].every(
    (method) => typeof (value as Record<string, unknown> | null)?.[method] === 'function',
  );

const bytes = z.number().int().positive();

/**
 * `filesPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-files", "options": { "directory": "data/files", "maxFileBytes": 10485760 } }`.
 * Its options are `filesPlugin`'s, validated.
 */
export const filesPluginFactory = definePluginFactory({
  id: 'files',
  options: z
    .object({
      directory: z.string().min(1).optional(),
      store: z.custom<FileStore>(isFileStore, 'expected a FileStore (put, read, stream, delete)').optional(),
      maxFileBytes: bytes.optional(),
      maxReadBytes: bytes.optional(),
      readChunkChars: bytes.optional(),
      maxBytesPerUser: bytes.optional(),
    })
    .strict(),
  create: (options) => filesPlugin(options),
});
