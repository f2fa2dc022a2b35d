import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { FileServiceToken } from '@tessera/plugin-files';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { Id } from '../schemas.ts';
import { type Api, errors } from './shared.ts';

/** Types a browser may show inline on our origin; anything else (HTML, SVG, scripts) only downloads. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|avif)|text\/plain|text\/csv|text\/markdown|application\/json|application\/pdf)$/;

/** File downloads: the bytes of a file of one of your conversations, with its type and name. */
export function fileRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/files/{fileId}',
      operationId: 'downloadConversationFile',
      tags: tags('files'),
      summary: 'Download a file',
      description:
        "The bytes of a file of one of your conversations (one you attached, or one a tool made), with its type and name. `?inline=1` lets a browser show images, PDFs and text in place; any other type, HTML and SVG included, always downloads. A browser's link works with the session cookie: no token goes in a URL.",
      request: {
        params: z.object({ id: Id, fileId: Id }),
        query: z.object({ inline: z.enum(['0', '1']).optional() }),
      },
      responses: {
        200: { description: 'The bytes', content: { 'application/octet-stream': { schema: z.string() } } },
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id, fileId } = c.req.valid('param');
      await platform.conversations.get(id, c.var.userId); // 404 unless it is the caller's
      const { file, bytes } = await platform.services
        .resolve(FileServiceToken)
        .bytes({ userId: c.var.userId, conversationId: id }, fileId);
      const inline = c.req.valid('query').inline === '1' && INLINE.test(file.mediaType);
      const name = encodeURIComponent(file.name);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'content-type': file.mediaType,
        'content-length': String(bytes.byteLength),
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        'cache-control': 'private, max-age=3600',
      });
    },
  );
}
