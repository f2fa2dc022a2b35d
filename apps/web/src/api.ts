import createClient from 'openapi-fetch';
import type { components, paths } from './api-types.ts';
import type { CreateGoalInput, GoalApi, GoalBudgets, GoalRevision } from './goals/goal-types.ts';

export type Conversation = components['schemas']['Conversation'];
export type Prompt = components['schemas']['Prompt'];
export type Output = Prompt['output'][number] & Record<string, unknown>;
/** A trigger with its schedule in words; its instants (`nextFireAt`, …) are ISO UTC, `schedule.timeZone` its zone. */
export type Trigger = { trigger: components['schemas']['Trigger']; description: string };
export type SkillInfo = components['schemas']['SkillInfo'];
export type BlueprintInfo = components['schemas']['Blueprint'];
export type ModelClass = 'normal' | 'high';
export type McpServer = components['schemas']['McpServerStatus'];
export type QueuedMessage = components['schemas']['QueuedMessage'];
type WaitingPage<P extends '/api/approvals' | '/api/pauses'> =
  paths[P]['get']['responses'][200]['content']['application/json'];
/** A tool call waiting for the user's approval, in any of their conversations (the inbox lists them). */
export type PendingApproval = WaitingPage<'/api/approvals'>['items'][number];
/** A prompt paused for the user's decision (continue or stop), in any of their conversations. */
export type PendingPause = WaitingPage<'/api/pauses'>['items'][number];
/** One event of the user's own stream (GET /api/me/events): what keeps the list of conversations live. */
export type UserEvent = components['schemas']['UserEvent'];
/** A page of the server's search hits (GET /api/search). */
export type SearchPage = Awaited<ReturnType<Api['search']>>;
export type SearchHit = SearchPage['items'][number];
/** A tool the conversation offers the model, with its arguments' JSON Schema: what the tool runner lists. */
export type OfferedTool = components['schemas']['OfferedTool'];

/** An error to show people: `code` is stable (`not_found`, `unauthorized`, `network`, …), `message` is readable. */
export class ApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Sent with every request: the server refuses cookie-authenticated requests that change anything without it
 * (another site cannot set it), see the server's session.ts.
 */
export const CSRF_HEADERS = { 'x-requested-with': 'tessera-web' };

/** The browser's IANA time zone (e.g. `Europe/Paris`), sent with each message; undefined if it has none. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

const NETWORK_MESSAGE = 'Cannot reach the Tessera server. Check that it is running and that you are online.';

/** `fetch`, with a failure to reach the server as an ApiError people can read (not "Failed to fetch"). */
const fetchOrExplain: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('network', NETWORK_MESSAGE);
  }
};

/** The ApiError of a response that is not ok: the server's `{ error: { code, message } }`, else its status. */
export function errorFrom(response: Response, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof error?.code === 'string' && typeof error.message === 'string')
    return new ApiError(error.code, error.message);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new ApiError(
    'http_error',
    response.status >= 500
      ? `The server failed (${status}). Try again in a moment.`
      : `The server answered ${status}.`,
  );
}

/** The same, reading the body (which may not be JSON: a proxy's error page). */
const errorOf = async (response: Response): Promise<ApiError> =>
  errorFrom(response, await response.json().catch(() => undefined));

/** What the calls of every resource share: the typed client, the headers to send, the server's address. */
interface Connection {
  client: ReturnType<typeof createClient<paths>>;
  auth: Record<string, string>;
  baseUrl: string;
}

/** A call's data, or the ApiError of its failure. */
const unwrap = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
  if (result.error !== undefined || !result.response.ok) throw errorFrom(result.response, result.error);
  return result.data as T;
};

const withId = (id: string) => ({ params: { path: { id } } });

/** The user, and their standing instructions for the model. */
function meCalls({ client }: Connection) {
  return {
    me: async () => unwrap(await client.GET('/api/me')),
    /** The user's standing instructions for the model (when the server runs the `instructions` plugin). */
    instructions: async () => unwrap(await client.GET('/api/me/instructions')).instructions,
    /** Replaces them ('' clears them); the model reads them from its next call. At most 4000 characters. */
    setInstructions: async (instructions: string) =>
      unwrap(await client.PUT('/api/me/instructions', { body: { instructions } })).instructions,
  };
}

function conversationCalls({ client }: Connection) {
  return {
    conversations: async () =>
      unwrap(await client.GET('/api/conversations', { params: { query: { limit: 100 } } })).items,
    /** A page of hits for `q` in the user's titles, messages and answers (the server's full-text search). */
    search: async (q: string, cursor?: string) =>
      unwrap(
        await client.GET('/api/search', { params: { query: { q, limit: 20, ...(cursor && { cursor }) } } }),
      ),
    createConversation: async (title?: string) =>
      unwrap(await client.POST('/api/conversations', { body: title ? { title } : {} })),
    conversation: async (id: string) => unwrap(await client.GET('/api/conversations/{id}', withId(id))),
    /** One prompt of the user's, with its outputs (a sub-agent's child prompt, shown in its parent's call). */
    prompt: async (id: string) => unwrap(await client.GET('/api/prompts/{id}', withId(id))),
    renameConversation: async (id: string, title: string) =>
      unwrap(await client.PATCH('/api/conversations/{id}', { ...withId(id), body: { title } })),
    deleteConversation: async (id: string) => {
      unwrap(await client.DELETE('/api/conversations/{id}', withId(id)));
    },
    /** A new branch of the conversation sharing its prompts before `promptId` (none of its own yet). */
    fork: async (id: string, promptId: string) =>
      unwrap(await client.POST('/api/conversations/{id}/fork', { ...withId(id), body: { promptId } })),
    /** The conversations of its lineage (the first and every fork), most recently changed first. */
    branches: async (id: string) =>
      unwrap(
        await client.GET('/api/conversations/{id}/branches', {
          params: { path: { id }, query: { limit: 200 } },
        }),
      ).items,
  };
}

/** One attempt at sending a prompt: JSON, or a multipart form when files go with it. */
async function postPrompt(
  { client, auth, baseUrl }: Connection,
  conversationId: string,
  body: { input: string; model: ModelClass; id: string; timeZone?: string },
  files: File[],
) {
  const { input, model, id, timeZone } = body;
  if (files.length === 0) {
    return unwrap(
      await client.POST('/api/conversations/{id}/prompts', {
        ...withId(conversationId),
        body: { input, model, id, ...(timeZone && { timeZone }) },
      }),
    );
  }
  const form = new FormData();
  if (input) form.set('input', input); // files alone are a message too
  form.set('id', id);
  form.set('model', model);
  if (timeZone) form.set('timeZone', timeZone);
  for (const file of files) form.append('files', file);
  const response = await fetchOrExplain(
    `${baseUrl}/api/conversations/${encodeURIComponent(conversationId)}/prompts`,
    { method: 'POST', headers: auth, body: form },
  );
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as { prompt: Prompt };
}

function promptCalls(connection: Connection) {
  const { client } = connection;
  return {
    /**
     * Sends a message. The prompt's id is chosen here, so a send that fails on the network is retried
     * safely: the server answers a repeated id with the prompt it already started.
     */
    send: async (
      conversationId: string,
      input: string,
      files: File[] = [],
      options: { model?: ModelClass } = {},
    ) => {
      const model = options.model ?? 'normal';
      const id = `prm_${crypto.randomUUID()}`;
      // The user's zone: the model is told their local time, and reminders they ask for run in it.
      const timeZone = browserTimeZone();
      for (let attempt = 1; ; attempt++) {
        try {
          return await postPrompt(connection, conversationId, { input, model, id, timeZone }, files);
        } catch (error) {
          // Only a failure to reach the server is retried; an answer (even an error) is final.
          if ((error instanceof ApiError && error.code !== 'network') || attempt === 3) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        }
      }
    },
    cancel: async (promptId: string) =>
      unwrap(await client.POST('/api/prompts/{id}/cancel', withId(promptId))),
    /** Decides a pause: `continue` runs the next round (past a budget, with `budgets` raised), `stop` ends the prompt. */
    resumePause: async (
      pauseId: string,
      choice: 'continue' | 'stop',
      budgets?: components['schemas']['BudgetRaise'],
    ) =>
      unwrap(
        await client.POST('/api/pauses/{id}/resume', {
          ...withId(pauseId),
          body: { choice, ...(budgets && { budgets }) },
        }),
      ),
  };
}

/**
 * Every item of a waiting list (approvals, pauses), page after page. At most `MAX_WAITING_PAGES` pages:
 * beyond that many waiting prompts, the inbox shows the oldest.
 */
async function everyPage<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_WAITING_PAGES; pages++) {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}
const MAX_WAITING_PAGES = 10;

/** What waits for the user across their conversations: the inbox's calls to approve and pauses to decide. */
function waitingCalls({ client }: Connection) {
  const query = (cursor?: string) => ({ params: { query: { limit: 200, ...(cursor && { cursor }) } } });
  return {
    approvals: (): Promise<PendingApproval[]> =>
      everyPage(async (cursor) => unwrap(await client.GET('/api/approvals', query(cursor)))),
    pauses: (): Promise<PendingPause[]> =>
      everyPage(async (cursor) => unwrap(await client.GET('/api/pauses', query(cursor)))),
  };
}

function toolCallCalls({ client, auth, baseUrl }: Connection) {
  return {
    /** Approves a call; with `edit`, it runs with those arguments (a 400 names what the tool refuses). */
    approve: async (toolCallId: string, edit?: { input: unknown }) =>
      unwrap(
        await client.POST('/api/tool-calls/{id}/approve', {
          ...withId(toolCallId),
          ...(edit && { body: edit }),
        }),
      ),
    /** Answers a call with its result in the tool's place: the tool does not run, the model reads `answer`. */
    answer: async (toolCallId: string, answer: unknown, reason?: string) =>
      unwrap(
        await client.POST('/api/tool-calls/{id}/answer', {
          ...withId(toolCallId),
          body: { answer, ...(reason && { reason }) },
        }),
      ),
    /** Skips a call: it does not run, and the model goes on without it. */
    skip: async (toolCallId: string, reason?: string) =>
      unwrap(
        await client.POST('/api/tool-calls/{id}/skip', {
          ...withId(toolCallId),
          body: reason ? { reason } : {},
        }),
      ),
    /** A call with its tool's argument JSON Schema (`inputSchema`), for editing before approving. */
    toolCall: async (toolCallId: string) =>
      unwrap(await client.GET('/api/tool-calls/{id}', withId(toolCallId))),
    reject: async (toolCallId: string, reason?: string) => {
      const response = await fetchOrExplain(`${baseUrl}/api/tool-calls/${toolCallId}/reject`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(reason ? { reason } : {}),
      });
      if (!response.ok) throw await errorOf(response);
    },
  };
}

/** Messages sent while the assistant works (steering, follow-ups). */
function messageCalls({ client }: Connection) {
  return {
    /**
     * Sends a message while the assistant works: `steer` reaches the running answer at its next step,
     * `queue` runs as the next prompt when it ends. On an idle conversation it runs at once.
     */
    sendMessage: async (
      conversationId: string,
      input: string,
      mode: 'steer' | 'queue',
      options: { model?: ModelClass } = {},
    ) => {
      // As a sent prompt's: a follow-up runs on the chosen class, in the user's zone.
      const timeZone = browserTimeZone();
      return unwrap(
        await client.POST('/api/conversations/{id}/messages', {
          ...withId(conversationId),
          body: {
            input,
            mode,
            ...(options.model && { model: options.model }),
            ...(timeZone && { timeZone }),
          },
        }),
      );
    },
    /** The conversation's waiting messages, oldest first. */
    messages: async (conversationId: string): Promise<QueuedMessage[]> =>
      unwrap(await client.GET('/api/conversations/{id}/messages', withId(conversationId))).items,
    removeMessage: async (conversationId: string, messageId: string) => {
      unwrap(
        await client.DELETE('/api/conversations/{id}/messages/{messageId}', {
          params: { path: { id: conversationId, messageId } },
        }),
      );
    },
  };
}

/** The tool runner: the conversation's tools, and a run of one (a prompt whose first call is the user's). */
function toolRunCalls({ client }: Connection) {
  return {
    /** The tools the conversation offers the model, in its order. */
    tools: async (conversationId: string): Promise<OfferedTool[]> =>
      unwrap(await client.GET('/api/conversations/{id}/tools', withId(conversationId))).items,
    /** Runs a tool with these arguments; the prompt shows in the conversation (a 400 says what they lack). */
    runTool: async (conversationId: string, toolId: string, input: Record<string, unknown>) => {
      const timeZone = browserTimeZone();
      return unwrap(
        await client.POST('/api/conversations/{id}/tool-runs', {
          ...withId(conversationId),
          body: { toolId, input, ...(timeZone && { timeZone }) },
        }),
      );
    },
  };
}

/** The plugins' resources: triggers, skills, blueprints, MCP servers. */
function pluginCalls({ client }: Connection) {
  return {
    triggers: async (conversationId: string) =>
      unwrap(await client.GET('/api/triggers', { params: { query: { conversationId } } })).items,
    pauseTrigger: async (id: string, pause: boolean) =>
      unwrap(await client.POST(pause ? '/api/triggers/{id}/pause' : '/api/triggers/{id}/resume', withId(id))),
    deleteTrigger: async (id: string) => {
      unwrap(await client.DELETE('/api/triggers/{id}', withId(id)));
    },
    skills: async (conversationId: string) =>
      unwrap(await client.GET('/api/skills', { params: { query: { conversationId } } })).items,
    /** Activates a skill in the conversation on the user's behalf; the skill as listed, now active. */
    activateSkill: async (conversationId: string, name: string): Promise<SkillInfo> =>
      unwrap(
        await client.POST('/api/conversations/{id}/skills/{name}/activate', {
          params: { path: { id: conversationId, name } },
        }),
      ),
    /** Every page, 200 at a time: the user's blueprints (200 at most by default), then the shared ones. */
    blueprints: (): Promise<BlueprintInfo[]> =>
      everyPage(async (cursor) =>
        unwrap(
          await client.GET('/api/blueprints', {
            params: { query: { limit: 200, ...(cursor && { cursor }) } },
          }),
        ),
      ),
    deleteBlueprint: async (id: string) => {
      unwrap(await client.DELETE('/api/blueprints/{id}', withId(id)));
    },
    mcpServers: async (): Promise<McpServer[]> => unwrap(await client.GET('/api/mcp/servers')).items,
  };
}

/** The conversation's goal (the goals plugin's routes, when the server has it). */
function goalCalls({ client }: Connection): GoalApi {
  const at = (id: string) => ({ params: { path: { id } } });
  return {
    goal: async (conversationId: string) => {
      try {
        return unwrap(await client.GET('/api/conversations/{id}/goal', at(conversationId)));
      } catch (error) {
        // None yet (or a server without the plugin): no goal, not an error.
        if (error instanceof ApiError && error.code === 'not_found') return undefined;
        throw error;
      }
    },
    createGoal: async (conversationId: string, input: CreateGoalInput) =>
      unwrap(await client.POST('/api/conversations/{id}/goal', { ...at(conversationId), body: input })),
    reviseGoal: async (conversationId: string, changes: GoalRevision) =>
      unwrap(await client.PATCH('/api/conversations/{id}/goal', { ...at(conversationId), body: changes })),
    pauseGoal: async (conversationId: string, reason?: string) =>
      unwrap(
        await client.POST('/api/conversations/{id}/goal/pause', {
          ...at(conversationId),
          body: reason ? { reason } : {},
        }),
      ),
    resumeGoal: async (conversationId: string, budgets?: GoalBudgets) =>
      unwrap(
        await client.POST('/api/conversations/{id}/goal/resume', {
          ...at(conversationId),
          body: budgets ? { budgets } : {},
        }),
      ),
    stopGoal: async (conversationId: string, reason?: string) =>
      unwrap(
        await client.POST('/api/conversations/{id}/goal/stop', {
          ...at(conversationId),
          body: reason ? { reason } : {},
        }),
      ),
    confirmCriterion: async (conversationId: string, criterionId: string, note?: string) =>
      unwrap(
        await client.POST('/api/conversations/{id}/goal/criteria/{criterionId}/confirm', {
          params: { path: { id: conversationId, criterionId } },
          body: note ? { note } : {},
        }),
      ),
  };
}

/** Addresses the browser loads itself (downloads, event streams). */
function urlCalls({ baseUrl }: Connection) {
  return {
    /** A download link: the session cookie authorizes it (no token in it: links are shared, logged, kept). */
    fileUrl: (conversationId: string, fileId: string, inline = false) =>
      `${baseUrl}/api/conversations/${encodeURIComponent(conversationId)}/files/${encodeURIComponent(fileId)}${inline ? '?inline=1' : ''}`,
    /** For `new EventSource(…)`: the session cookie authorizes it. An unknown conversation answers 404. */
    eventsUrl: (conversationId: string) =>
      `${baseUrl}/api/conversations/${encodeURIComponent(conversationId)}/events`,
    /** The user's own stream: their conversations created, renamed, deleted, and waiting for them. */
    userEventsUrl: () => `${baseUrl}/api/me/events`,
  };
}

/**
 * The typed client of the server's API (types generated from its OpenAPI document). In the browser, call it
 * without a token: the session cookie (see auth.ts) authorizes every request, event streams and downloads
 * included, and no URL carries a token. Programs and tests pass a bearer token.
 */
export function createApi(token?: string, baseUrl = '') {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : CSRF_HEADERS;
  const client = createClient<paths>({ baseUrl, headers: auth, fetch: (request) => fetchOrExplain(request) });
  const connection: Connection = { client, auth, baseUrl };
  return {
    token,
    ...meCalls(connection),
    ...conversationCalls(connection),
    ...promptCalls(connection),
    ...toolCallCalls(connection),
    ...waitingCalls(connection),
    ...messageCalls(connection),
    ...toolRunCalls(connection),
    ...pluginCalls(connection),
    ...goalCalls(connection),
    ...urlCalls(connection),
  };
}

export type Api = ReturnType<typeof createApi>;
