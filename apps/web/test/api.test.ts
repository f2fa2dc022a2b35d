import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api.ts';

afterEach(() => vi.unstubAllGlobals());

const accepted = (id: string) =>
  new Response(JSON.stringify({ prompt: { id, state: 'running', output: [] } }), {
    status: 202,
    headers: { 'content-type': 'application/json' },
  });

describe('sending a message', () => {
  it('retries a send the network dropped, with the same prompt id', async () => {
    const ids: string[] = [];
    const fetch = vi.fn(async (request: Request) => {
      const { id } = (await request.json()) as { id: string };
      ids.push(id);
      if (ids.length === 1) throw new TypeError('Failed to fetch');
      return accepted(id);
    });
    vi.stubGlobal('fetch', fetch);
    const api = createApi('token', 'http://tessera.test');
    const { prompt } = await api.send('cnv_1', 'hello');
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^prm_[\w-]+$/);
    expect(ids[1]).toBe(ids[0]);
    expect(prompt.id).toBe(ids[0]);
  });

  it('does not retry an answer from the server, even an error', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ error: { code: 'conversation_busy', message: 'Busy.' } }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(createApi('token', 'http://tessera.test').send('cnv_1', 'hello')).rejects.toMatchObject({
      code: 'conversation_busy',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
