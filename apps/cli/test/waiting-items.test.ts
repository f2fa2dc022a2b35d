import { describe, expect, it } from 'vitest';
import type { TesseraClient } from '../src/client.ts';
import { waitingItems } from '../src/loop-control.ts';

/** A client whose server answers three pages of a waiting list, and records what was asked. */
function pagedServer() {
  const pages: Record<string, { items: { id: string }[]; nextCursor?: string }> = {
    '': { items: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' },
    c1: { items: [], nextCursor: 'c/2' }, // a page may hold none of the items, and more follow
    'c/2': { items: [{ id: 'c' }] },
  };
  const asked: string[] = [];
  const client = {
    request: async (_method: string, path: string) => {
      asked.push(path);
      const cursor = new URL(path, 'http://x').searchParams.get('cursor') ?? '';
      return pages[cursor];
    },
  } as unknown as TesseraClient;
  return { client, asked };
}

describe('waitingItems', () => {
  it('follows nextCursor to the last page, passing each cursor back as it was given', async () => {
    const { client, asked } = pagedServer();
    expect(await waitingItems(client, '/api/approvals')).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    expect(asked).toEqual([
      '/api/approvals?limit=200',
      '/api/approvals?limit=200&cursor=c1',
      '/api/approvals?limit=200&cursor=c%2F2',
    ]);
  });

  it('stops after the page holding what it looks for', async () => {
    const { client, asked } = pagedServer();
    const found = await waitingItems<{ id: string }>(client, '/api/pauses', (item) => item.id === 'b');
    expect(found.map((item) => item.id)).toEqual(['a', 'b']);
    expect(asked).toHaveLength(1);
  });
});
