import type { OpenAPIHono } from '@hono/zod-openapi';

/**
 * The words of the API reference (/docs, /openapi.json) that belong to no single route: the introduction and
 * the tags, one per resource, that group the operations. Every operation names exactly one of these tags
 * (test/openapi.test.ts fails on one that does not, or that has no summary or description).
 */

export const API_INTRODUCTION = [
  'The HTTP API of a Tessera server: conversations with an agent, the prompts that run in them, the approvals',
  'and pauses that wait for you, and live events. Every request and response body is JSON (a prompt may be',
  'sent as multipart/form-data with files); every error is `{ "error": { "code", "message" } }`.',
  '',
  '## Authentication',
  '',
  'Programs send a bearer token: `Authorization: Bearer <token>`. Where a token comes from:',
  '',
  '- **A local server** (no tokens configured): the server makes one token for its one user, keeps it in its',
  "  data directory's `local-token` file (`apps/server/.tessera/local-token` under `pnpm start`) and prints it",
  '  when it starts, with a link that signs the web UI in (`http://127.0.0.1:3000/#token=…`). The `tessera`',
  '  command line finds the file by itself.',
  "- **Configured users**: `auth.tokens` (token → user id) in the server's config file, or `TESSERA_TOKENS`",
  '  (`token=user,token=user`): ask whoever runs the server for yours.',
  '',
  'A browser signs in once with `POST /api/session` (a token for an HttpOnly session cookie); requests it makes',
  'that change anything must then send `X-Requested-With`. Everything you read or change is your own: another',
  "user's conversation is a 404.",
  '',
  '## Following a prompt',
  '',
  "Sending input answers at once (202) with the prompt running; open the conversation's event stream",
  '(`GET /api/conversations/{id}/events`) first to follow it as it streams, waits for an approval, and ends.',
].join('\n');

export const API_TAGS = [
  { name: 'session', description: 'Sign a browser in and out (a token for a session cookie).' },
  { name: 'me', description: 'You: who you are, which model answers, and your standing instructions.' },
  {
    name: 'conversations',
    description:
      'Your conversations: create, list, read with every prompt, rename, fork at a prompt (a branch sharing the prompts before it) and list the branches of a lineage, delete.',
  },
  {
    name: 'prompts',
    description:
      'A prompt is one run of the agent on your input: send one (with files, if you like), read it, cancel it, read its run report.',
  },
  {
    name: 'messages',
    description:
      'Messages to a busy conversation: steer the running prompt, or queue a follow-up; list and remove those waiting.',
  },
  {
    name: 'approvals',
    description:
      "Tool calls waiting for your approval: list them, read one with its schema, approve (arguments edited or not), reject, answer with a result in the tool's place, or skip.",
  },
  {
    name: 'pauses',
    description:
      'Prompts paused for your decision outside a tool call (repeated calls, a plugin, a budget reached): list them, continue or stop.',
  },
  { name: 'events', description: 'Live events over Server-Sent Events, resumable with `Last-Event-ID`.' },
  { name: 'tools', description: 'The tools a conversation offers the model, and running one yourself.' },
  {
    name: 'files',
    description:
      'Files of a conversation: those you upload with a prompt (multipart `files` of `sendPrompt`) and those tools make, downloaded here.',
  },
  { name: 'skills', description: 'The skills catalogue, and activating a skill in a conversation.' },
  { name: 'blueprints', description: 'Reusable step-by-step procedures: yours and the shared ones.' },
  { name: 'triggers', description: 'Scheduled work the agent set up for you: list, pause, resume, delete.' },
  {
    name: 'goals',
    description:
      "Goals: an objective the agent works toward over as many prompts as it takes, with criteria that tell it is done (a check tool's or your confirmation) and budgets; create, read, revise, pause, resume, stop, confirm a criterion.",
  },
  { name: 'mcp', description: "The app's MCP servers and how each stands." },
  {
    name: 'OpenAI-compatible',
    description:
      "The OpenAI protocols, for OpenAI clients (the `openai` SDKs, chat apps, editors): the API key is your Tessera token, each message runs as a prompt with the app's tools.",
  },
  {
    name: 'AI SDK',
    description:
      "The AI SDK's UI message stream, for `useChat` (`@ai-sdk/react` and the other AI SDK UIs): a chat is a conversation, its tool calls and approvals live, answered from the client.",
  },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** An operation's tag: typed, so a misspelt or unknown resource does not compile. */
export const tags = (name: ApiTag): [ApiTag] => [name];

/** The tags the registered operations use, in the order above: a server without a plugin lists none of its. */
export function tagsInUse(app: OpenAPIHono<never> | { openAPIRegistry: OpenAPIHono['openAPIRegistry'] }) {
  const used = new Set<string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type === 'route') for (const tag of definition.route.tags ?? []) used.add(tag);
  }
  return API_TAGS.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag }));
}
