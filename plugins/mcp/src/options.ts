import { z } from 'zod';

/** `${env:NAME}` in a setting: the value of that environment variable, so secrets stay out of config files. */
const ENV_REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A string setting in which `${env:NAME}` is replaced when the plugin is made; an unset variable is an error. */
const expandable = z.string().transform((text, ctx) =>
  text.replace(ENV_REFERENCE, (_, name: string) => {
    const value = process.env[name];
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `the environment variable ${name} is not set` });
      return '';
    }
    return value;
  }),
);

/** Server names become tool id prefixes (`github.create_issue`): no dots, short. */
export const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

/** Taken by the plugin's own tools (`mcp.read_resource`, ...). */
const RESERVED_NAMES = new Set(['mcp']);

/**
 * How calls of a server's tools are approved. `auto`: from the server's annotations (a tool marked read-only,
 * or not destructive, runs at once; any other asks); `always`: every call asks; `never`: none asks.
 */
export const ApprovalMode = z.enum(['auto', 'always', 'never']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

const ToolSettings = z
  .object({
    /** Overrides the server's and the annotations' word for this tool. */
    approval: ApprovalMode.optional(),
    /** Overrides `readOnlyHint`: read-only calls run in parallel, and again after a crash. */
    readOnly: z.boolean().optional(),
    /** `false` leaves the tool out: the model is never offered it. */
    enabled: z.boolean().optional(),
  })
  .strict();
export type ToolSettings = z.infer<typeof ToolSettings>;

const ServerSettings = z
  .object({
    /** `stdio` (a command), `http` (Streamable HTTP, falling back to SSE where a server has only that) or `sse`. */
    type: z.enum(['stdio', 'http', 'sse']).optional(),
    command: expandable.pipe(z.string().min(1)).optional(),
    args: z.array(expandable).default([]),
    /** Added to a small safe set inherited from the app (PATH, HOME, ...), as Claude Desktop does. */
    env: z.record(z.string(), expandable).default({}),
    cwd: expandable.optional(),
    url: expandable.pipe(z.url({ protocol: /^https?$/ })).optional(),
    headers: z.record(z.string(), expandable).default({}),
    /** `false`: configured but not connected. */
    enabled: z.boolean().default(true),
    approval: ApprovalMode.default('auto'),
    /** Per tool, by the server's name for it. */
    tools: z.record(z.string(), ToolSettings).default({}),
    /** Per call of this server's tools; default the platform's tool timeout. */
    timeoutMs: z.number().int().positive().optional(),
    /** Whether the server's `instructions` (sent when it connects) join the model's context. */
    instructions: z.boolean().default(true),
  })
  .strict()
  .superRefine((server, ctx) => {
    const stdio = server.command !== undefined;
    const remote = server.url !== undefined;
    if (stdio === remote) {
      ctx.addIssue({
        code: 'custom',
        message: 'give either command (a server run as a process, over stdio) or url (a server over HTTP)',
      });
    } else if (stdio && server.type !== undefined && server.type !== 'stdio') {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `a server with a command is 'stdio'` });
    } else if (remote && server.type === 'stdio') {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `a server with a url is 'http' or 'sse'` });
    }
  });

export type ServerSettings = z.output<typeof ServerSettings>;

// Names are checked beside the record: zod reports a bad record key without the key's own message.
const Servers = z.record(z.string(), ServerSettings).superRefine((servers, ctx) => {
  for (const name of Object.keys(servers)) {
    if (!SERVER_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'a server name is 1-32 letters, digits, _ or -',
      });
    } else if (RESERVED_NAMES.has(name)) {
      const message = `'mcp' is the plugin's own prefix: name the server otherwise`;
      ctx.addIssue({ code: 'custom', path: [name], message });
    }
  }
});

const ms = z.coerce.number().int().nonnegative();

export const McpOptions = z
  .object({
    /**
     * The servers, by name: `{ command, args?, env?, cwd? }` or `{ url, headers?, type? }`, with `approval`,
     * `tools`, `timeoutMs`. From the environment, JSON text (TESSERA_MCP_SERVERS).
     */
    servers: z.preprocess((value) => (typeof value === 'string' ? parseJson(value) : value), Servers),
    /** How long one connection attempt (start, initialize, first listings) may take. */
    connectTimeoutMs: ms.default(15_000),
    /** The first delay before reconnecting a server that died or could not be reached; it doubles. */
    reconnectDelayMs: ms.default(1_000),
    /** The longest delay between reconnection attempts. */
    maxReconnectDelayMs: ms.default(30_000),
    /** How often a connected HTTP server is pinged to find out it is gone (0: never). */
    healthCheckMs: ms.default(30_000),
  })
  .strict();

export type McpOptionsInput = z.input<typeof McpOptions>;
export type McpSettings = z.output<typeof McpOptions>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // the schema then says it is not an object
  }
}
