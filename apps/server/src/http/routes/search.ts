import { createRoute, z } from '@hono/zod-openapi';
import {
  matchesSearch,
  type Page,
  type Platform,
  SEARCH_PAGE_MAX,
  SEARCH_QUERY_MAX_CHARS,
  SEARCH_QUERY_MAX_TERMS,
  type SearchHit,
  type Store,
  searchCursor,
  searchPage,
  searchSnippet,
  searchTerms,
} from '@tessera/core';
import { tags } from '../api-reference.ts';
import { conversationExample } from '../examples.ts';
import { type Api, errors, json } from './shared.ts';

const SearchQuery = z.object({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX_CHARS)
    .meta({
      description: `What to find: words (letters and digits), all of which a text must hold, case-insensitively. At most ${SEARCH_QUERY_MAX_CHARS} characters and ${SEARCH_QUERY_MAX_TERMS} words (a 400 beyond); anything else in it is ignored.`,
      example: 'rome',
    }),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(20),
  cursor: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'use the nextCursor of the previous page')
    .optional(),
});

const SearchHitSchema = z
  .object({
    conversationId: z.string(),
    promptId: z.string().optional().meta({ description: 'The prompt whose input or answer matched.' }),
    title: z.string().optional().meta({ description: "The conversation's title." }),
    field: z.enum(['title', 'input', 'output']),
    snippet: z.object({
      text: z.string().meta({ description: 'Plain text around the first match (never markup).' }),
      highlights: z
        .array(z.tuple([z.number().int(), z.number().int()]))
        .meta({ description: 'The matched words, as [start, end) offsets into `text` (UTF-16 code units).' }),
    }),
  })
  .meta({ id: 'SearchHit' });

const SearchPage = z.object({ items: z.array(SearchHitSchema), nextCursor: z.string().optional() });

const searchExample = {
  items: [
    {
      conversationId: conversationExample.id,
      promptId: conversationExample.promptIds[0],
      title: conversationExample.title,
      field: 'output' as const,
      snippet: {
        text: 'The capital of Italy is Rome, on the Tiber.',
        highlights: [[24, 28]] as [number, number][],
      },
    },
  ],
};

/** Conversations a title-only search reads at most, for a store without `search`. */
const TITLE_SCAN_MAX = 2_000;

/**
 * The store's full-text search; for a store without one (written before it), the user's most recent 2,000
 * conversations' titles, matched the same way and paged with the same cursors.
 */
export async function searchConversations(
  store: Store,
  userId: string,
  query: string,
  options: { limit?: number; cursor?: string },
): Promise<Page<SearchHit>> {
  if (store.conversations.search) return store.conversations.search(userId, query, options);
  const terms = searchTerms(query);
  const { limit, offset } = searchPage(options);
  if (terms.length === 0) return { items: [] };
  const hits: SearchHit[] = [];
  let cursor: string | undefined;
  for (let read = 0; read < TITLE_SCAN_MAX && hits.length <= offset + limit; ) {
    const page = await store.conversations.listByUser(userId, { limit: 200, ...(cursor && { cursor }) });
    read += page.items.length;
    for (const c of page.items) {
      if (matchesSearch(c.title, terms)) {
        hits.push({
          conversationId: c.id,
          title: c.title,
          field: 'title',
          snippet: searchSnippet(c.title, terms),
        });
      }
    }
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const items = hits.slice(offset, offset + limit);
  const next = hits.length > offset + limit ? searchCursor(offset, limit) : undefined;
  return next === undefined ? { items } : { items, nextCursor: next };
}

/** Full-text search of your conversations. */
export function searchRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/search',
      operationId: 'searchConversations',
      tags: tags('conversations'),
      summary: 'Search your conversations',
      description: `Finds words in your conversations: their titles, your messages and the answers. A text matches when it holds every word of \`q\` (whole words, case-insensitively, in any language: no stemming). Each hit is one matching text, with a plain-text snippet and the matched words as offsets to highlight; hits come by conversation, most recently changed first. \`limit\` at a time (20 unless given, at most ${SEARCH_PAGE_MAX}); follow \`nextCursor\`. Only your own conversations are searched. A server whose store has no full-text search matches titles only.`,
      request: { query: SearchQuery },
      responses: {
        200: json(SearchPage, 'A page of hits', searchExample),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => {
      const { q, limit, cursor } = c.req.valid('query');
      const page = await searchConversations(platform.store, c.var.userId, q, {
        limit,
        ...(cursor !== undefined && { cursor }),
      });
      return c.json(page, 200);
    },
  );
}
