import { createTool } from '@tessera/core';
import { z } from 'zod';
import { fileFields } from './file-output.ts';
import { FileServiceToken } from './file-service.ts';

/** `files.read`: a page of a text file of this conversation. */
export const readFileTool = createTool({
  id: 'files.read',
  description:
    'Read a text file shown earlier in this conversation (by its file id, e.g. file_abc). Returns up to a page of text; pass nextOffset as offset to read on. Binary and very large files cannot be read.',
  input: z.object({
    fileId: fileFields.fileId.describe('The id from the file summary, e.g. file_abc123'),
    offset: z.number().int().nonnegative().default(0).describe('Character offset to start from'),
  }),
  readOnly: true,
  invoke: ({ input, services, userId, conversationId }) =>
    services.resolve(FileServiceToken).readText({ userId, conversationId }, input.fileId, input.offset),
});

/** `files.list`: the files of this conversation, from tools and uploads. */
export const listFilesTool = createTool({
  id: 'files.list',
  description: 'List the files of this conversation (made by tools or uploaded by the user), with their ids.',
  input: z.object({ cursor: z.string().optional().describe('nextCursor from a previous call') }),
  readOnly: true,
  invoke: async ({ input, services, userId, conversationId }) => {
    const page = await services
      .resolve(FileServiceToken)
      .list({ userId, conversationId }, input.cursor === undefined ? {} : { cursor: input.cursor });
    return {
      files: page.items.map(({ fileId, name, mediaType, size, summary, origin, createdAt }) => ({
        fileId,
        name,
        mediaType,
        size,
        ...(summary && { summary }),
        origin,
        createdAt,
      })),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  },
});
