/** A server that hands out more pages than this is repeating itself: stop there. */
const MAX_PAGES = 100;

/** Every page of an MCP list (`tools/list`, `prompts/list`, ...), following `nextCursor`. */
export async function listAll<T>(
  page: (cursor: string | undefined) => Promise<{ items: readonly T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const result = await page(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}
