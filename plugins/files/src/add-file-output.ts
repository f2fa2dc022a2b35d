import type { ToolInputBase } from '@tessera/core';
import { type FileService, FileServiceToken, type NewFile } from './file-service.ts';

/** What `addFileOutput` tells the tool about the file it added. */
export type AddedFile = {
  outputId: string;
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
  sha256: string;
};

/** Stores a file and records it right after the calling tool's output. */
export type AddFileOutput = (file: NewFile) => Promise<AddedFile>;

declare module '@tessera/core' {
  interface ToolInputExtensions {
    addFileOutput: AddFileOutput;
  }
}

/** `addFileOutput` for one tool call: the bytes go to the file store, the record gets the reference. */
export function fileHelpers({ services, emit, userId, conversationId, signal }: ToolInputBase): {
  addFileOutput: AddFileOutput;
} {
  const owner = { userId, conversationId };
  return {
    addFileOutput: async (file) => {
      const files: FileService = services.resolve(FileServiceToken);
      const output = await files.save(file, owner, { origin: 'tool', signal });
      let outputId: string;
      try {
        outputId = await emit(output);
      } catch (error) {
        await files.discard(output, owner);
        throw error;
      }
      const { fileId, name, mediaType, size, sha256 } = output;
      return { outputId, fileId, name, mediaType, size, sha256 };
    },
  };
}
