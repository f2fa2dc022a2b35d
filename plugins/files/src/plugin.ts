import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError, definePlugin, type Plugin, type Prompt, StoreToken } from '@tessera/core';
import { fileHelpers } from './add-file-output.ts';
import { fileOutput } from './file-output.ts';
import { type FileLimits, FileService, FileServiceToken } from './file-service.ts';
import { type FileStore, FileStoreToken } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';
import { listFilesTool, readFileTool } from './tools.ts';

export type FilesPluginOptions = Partial<FileLimits> & {
  /** Where bytes go. Default: a store already registered under `FileStoreToken`, else a `LocalFileStore`. */
  store?: FileStore;
  /** The directory of the default `LocalFileStore` (default: `tessera-files` in the OS temp directory). */
  directory?: string;
};

const hasFiles = (prompt: Prompt): boolean => prompt.output.some((output) => output.type === 'file');

export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  maxReadBytes: 1024 * 1024,
  readChunkChars: 10_000,
  // 1 GiB: some fifty of the largest uploads the server takes (20 MB), room for years of chat attachments and
  // tools' files, while one user can no longer fill the disk (a thousand users at the quota fit in 1 TB).
  maxBytesPerUser: 1024 ** 3,
};

/**
 * The `file` output, `addFileOutput` for tools, and the `files.read` and `files.list` tools (offered once
 * the conversation has a file). Uploads start a prompt as file outputs: `platform.send({ outputs: [upload] })`.
 */
export function filesPlugin(options: FilesPluginOptions = {}): Plugin {
  const limits: FileLimits = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_FILE_LIMITS.maxFileBytes,
    maxReadBytes: options.maxReadBytes ?? DEFAULT_FILE_LIMITS.maxReadBytes,
    readChunkChars: options.readChunkChars ?? DEFAULT_FILE_LIMITS.readChunkChars,
    maxBytesPerUser: options.maxBytesPerUser ?? DEFAULT_FILE_LIMITS.maxBytesPerUser,
  };
  for (const [name, value] of Object.entries(limits)) {
    // 0 would refuse every file (a quota of nothing is the plugin left out), so limits are positive.
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new DefinitionError(`Plugin 'files': ${name} must be a positive integer.`);
    }
  }
  /** Whether a prompt's history (one array for all its rounds) has a file. */
  const historyHasFiles = new WeakMap<readonly Prompt[], boolean>();
  return definePlugin({
    id: 'files',
    outputs: [fileOutput],
    services: (container) => {
      if (options.store) container.register(FileStoreToken, { useValue: options.store });
      else if (!container.isRegistered(FileStoreToken, true)) {
        const directory = options.directory ?? join(tmpdir(), 'tessera-files');
        container.register(FileStoreToken, { useValue: new LocalFileStore({ directory }) });
      }
      container.register(FileServiceToken, { useValue: new FileService(container, limits) });
    },
    toolInput: fileHelpers,
    // A deleted conversation takes its files with it: nobody could download them any more.
    conversationDeleted: async ({ conversationId, userId, services }) => {
      await services.resolve(FileServiceToken).deleteConversation({ conversationId, userId });
    },
    // A fork shares its source's prompts, and so their files: it gets its own record of each, the bytes
    // shared, so they stay readable from the fork after the source is deleted.
    conversationForked: async ({ conversationId, sourceId, userId, services }) => {
      const store = services.resolve(StoreToken);
      const fileIds = (await store.prompts.listByConversation(conversationId)).flatMap((prompt) =>
        prompt.output.flatMap((output) =>
          output.type === 'file' ? [(output as { fileId?: string }).fileId] : [],
        ),
      );
      await services.resolve(FileServiceToken).share(
        { conversationId: sourceId, userId },
        { conversationId, userId },
        fileIds.filter((id): id is string => typeof id === 'string'),
      );
    },
    prepare: ({ history, prompt, tools }) => {
      // The tools are offered once there is a file to read, so conversations without files pay nothing. The
      // history is the same array in every round of a prompt: it is read once, and a round reads only the
      // prompt's own outputs.
      let earlier = historyHasFiles.get(history);
      if (earlier === undefined) {
        earlier = history.some(hasFiles);
        historyHasFiles.set(history, earlier);
      }
      if (earlier || hasFiles(prompt)) tools.push(readFileTool, listFilesTool);
    },
  });
}
