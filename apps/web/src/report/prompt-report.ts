import { ApiError, errorFrom } from '../api.ts';
import type { components } from '../api-types.ts';

export type PromptReport = components['schemas']['PromptReport'];

/** GET /api/prompts/{id}/report, with the session cookie the UI signed in with. */
export async function fetchReport(promptId: string, signal?: AbortSignal): Promise<PromptReport> {
  let response: Response;
  try {
    response = await fetch(`/api/prompts/${encodeURIComponent(promptId)}/report`, {
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('network', 'Cannot reach the Tessera server to load the report.');
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok) throw errorFrom(response, body);
  return body as PromptReport;
}
