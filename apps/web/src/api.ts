import createClient from 'openapi-fetch';
import type { components, paths } from './api-types.ts';

export type Conversation = components['schemas']['Conversation'];
export type Prompt = components['schemas']['Prompt'];
export type Output = Prompt['output'][number] & Record<string, unknown>;
export type Trigger = {
  trigger: { id: string; name: string; status: string; instruction: string };
  description: string;
};
export type SkillInfo = { name: string; description: string; active: boolean; kind: string };
export type BlueprintInfo = { id: string; title: string; summary: string; owner: string; usageCount: number };
export type McpServer = components['schemas']['McpServerStatus'];

export class ApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The typed client of the server's API (types generated from its OpenAPI document). */
export function createApi(token: string, baseUrl = '') {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const unwrap = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
    if (result.error !== undefined || !result.response.ok) {
      const body = result.error as { error?: { code: string; message: string } } | undefined;
      throw new ApiError(
        body?.error?.code ?? 'http_error',
        body?.error?.message ?? result.response.statusText,
      );
    }
    return result.data as T;
  };
  const withId = (id: string) => ({ params: { path: { id } } });
  return {
    token,
    me: async () => unwrap(await client.GET('/api/me')),
    conversations: async () =>
      unwrap(await client.GET('/api/conversations', { params: { query: { limit: 100 } } })).items,
    createConversation: async (title?: string) =>
      unwrap(await client.POST('/api/conversations', { body: title ? { title } : {} })),
    conversation: async (id: string) => unwrap(await client.GET('/api/conversations/{id}', withId(id))),
    renameConversation: async (id: string, title: string) =>
      unwrap(await client.PATCH('/api/conversations/{id}', { ...withId(id), body: { title } })),
    deleteConversation: async (id: string) => {
      unwrap(await client.DELETE('/api/conversations/{id}', withId(id)));
    },
    /**
     * Sends a message. The prompt's id is chosen here, so a send that fails on the network is retried
     * safely: the server answers a repeated id with the prompt it already started.
     */
    send: async (conversationId: string, input: string, files: File[] = []) => {
      const id = `prm_${crypto.randomUUID()}`;
      const once = async () => {
        if (files.length === 0) {
          return unwrap(
            await client.POST('/api/conversations/{id}/prompts', {
              ...withId(conversationId),
              body: { input, model: 'normal', id },
            }),
          );
        }
        const form = new FormData();
        form.set('input', input);
        form.set('id', id);
        for (const file of files) form.append('files', file);
        const response = await fetch(`${baseUrl}/api/conversations/${conversationId}/prompts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        const body = await response.json();
        if (!response.ok)
          throw new ApiError(body.error?.code ?? 'http_error', body.error?.message ?? response.statusText);
        return body as { prompt: Prompt };
      };
      for (let attempt = 1; ; attempt++) {
        try {
          return await once();
        } catch (error) {
          // Only a failure to reach the server is retried; an answer (even an error) is final.
          if (error instanceof ApiError || attempt === 3) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        }
      }
    },
    cancel: async (promptId: string) =>
      unwrap(await client.POST('/api/prompts/{id}/cancel', withId(promptId))),
    approve: async (toolCallId: string) =>
      unwrap(await client.POST('/api/tool-calls/{id}/approve', withId(toolCallId))),
    reject: async (toolCallId: string, reason?: string) => {
      const response = await fetch(`${baseUrl}/api/tool-calls/${toolCallId}/reject`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(reason ? { reason } : {}),
      });
      if (!response.ok) {
        const body = await response.json();
        throw new ApiError(body.error?.code ?? 'http_error', body.error?.message ?? response.statusText);
      }
    },
    triggers: async (conversationId: string) =>
      unwrap(await client.GET('/api/triggers', { params: { query: { conversationId } } })).items as Trigger[],
    pauseTrigger: async (id: string, pause: boolean) =>
      unwrap(await client.POST(pause ? '/api/triggers/{id}/pause' : '/api/triggers/{id}/resume', withId(id))),
    deleteTrigger: async (id: string) => {
      unwrap(await client.DELETE('/api/triggers/{id}', withId(id)));
    },
    skills: async (conversationId: string) =>
      unwrap(await client.GET('/api/skills', { params: { query: { conversationId } } })).items as SkillInfo[],
    blueprints: async () => unwrap(await client.GET('/api/blueprints')).items as BlueprintInfo[],
    mcpServers: async (): Promise<McpServer[]> => unwrap(await client.GET('/api/mcp/servers')).items,
    fileUrl: (conversationId: string, fileId: string, inline = false) =>
      `${baseUrl}/api/conversations/${conversationId}/files/${fileId}?token=${encodeURIComponent(token)}${inline ? '&inline=1' : ''}`,
    eventsUrl: (conversationId: string) =>
      `${baseUrl}/api/conversations/${conversationId}/events?token=${encodeURIComponent(token)}`,
  };
}

export type Api = ReturnType<typeof createApi>;
