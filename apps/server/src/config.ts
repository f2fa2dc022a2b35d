import {
  DEFAULT_MAX_BRANCHES,
  DEFAULT_MAX_CONVERSATION_CHARS,
  DEFAULT_MAX_CONVERSATIONS,
} from '@tessera/core';
import { SHARED } from '@tessera/plugin-blueprints';
import { z } from 'zod';

const Budgets = z
  .object({
    maxRounds: z.number().int().positive(),
    maxToolCalls: z.number().int().positive(),
    maxWallTimeMs: z.number().int().positive(),
    maxTokens: z.number().int().positive(),
    maxInputTokens: z.number().int().positive(),
    maxOutputTokens: z.number().int().positive(),
    maxCost: z.number().positive(),
    maxConsecutiveToolErrors: z.number().int().positive(),
    maxConcurrentTools: z.number().int().positive(),
  })
  .partial();

/**
 * Each configured token: long enough not to be guessed, and what an Authorization header carries intact (no
 * spaces, controls or non-ASCII characters). A problem names the token's user, never the token: this
 * message is printed and logged.
 */
function checkTokens(tokens: Record<string, string>, ctx: z.RefinementCtx): void {
  for (const [token, userId] of Object.entries(tokens)) {
    const problem =
      token.length < 16
        ? 'is shorter than 16 characters'
        : /^[\x21-\x7e]+$/.test(token)
          ? undefined
          : 'must be printable ASCII without spaces';
    if (problem) ctx.addIssue({ code: 'custom', message: `The token of user "${userId}" ${problem}.` });
    // The owner of the blueprints every user shares: a user of that id could change or delete them all.
    if (userId === SHARED) {
      ctx.addIssue({
        code: 'custom',
        message: `"${SHARED}" is no user id: it owns the blueprints all users share.`,
      });
    }
  }
}

/** At most `max` in each window of `windowSeconds`; a `max` of 0 turns the limit off. */
const rateLimit = (max: number, windowSeconds: number) =>
  z
    .object({
      max: z.number().int().min(0).default(max),
      windowSeconds: z.number().int().positive().default(windowSeconds),
    })
    .prefault({});

/** Limits on what a client can send, per address and per user (see the README's "Rate limits"). */
const RateLimits = z.object({
  /**
   * Requests with a token that is not valid (a bearer token, or a sign-in), per client address: past `max`
   * in a window, the address may not present a token for `blockSeconds` (0: until the window ends).
   */
  failedAuth: z
    .object({
      max: z.number().int().min(0).default(10),
      windowSeconds: z.number().int().positive().default(60),
      blockSeconds: z.number().int().min(0).default(900),
    })
    .prefault({}),
  /** Every request of a signed-in user (event streams count once, when opened). */
  requestsPerUser: rateLimit(600, 60),
  /** Sends that start or queue a prompt (POST …/prompts, …/messages and …/tool-runs) and forks, per user. */
  promptsPerUser: rateLimit(60, 60),
  /** Requests that are not signed in (signing in, the web UI's files, the API document, 401s), per address. */
  requestsPerAddress: rateLimit(300, 60),
});

const EVENT_STREAM_LIMITS = {
  streamQueueBytes: 2_000_000,
  streamsPerUser: 100,
  replayLogBytes: 8_000_000,
  replayLogBytesPerConversation: 8_000_000,
};

/** The event streams' limits (see the README's "Event streams"), among `limits`. */
const EventStreamLimits = {
  /**
   * The most bytes of events a stream may have waiting while its connection takes nothing: past it the
   * reader is too slow, and the stream is cut (the client resumes from the last event it received).
   */
  streamQueueBytes: z.number().int().positive().default(EVENT_STREAM_LIMITS.streamQueueBytes),
  /** Event streams one user may have open at once (per process); past it, 429 `too_many_streams`. */
  streamsPerUser: z.number().int().positive().default(EVENT_STREAM_LIMITS.streamsPerUser),
  /** Bytes of recent events kept for streams to resume from (`Last-Event-ID`), in all and per conversation. */
  replayLogBytes: z.number().int().positive().default(EVENT_STREAM_LIMITS.replayLogBytes),
  replayLogBytesPerConversation: z
    .number()
    .int()
    .positive()
    .default(EVENT_STREAM_LIMITS.replayLogBytesPerConversation),
};

/** Everything the server can be told; each field has a default so that no configuration is needed. */
export const ServerConfig = z.object({
  port: z.coerce.number().int().min(0).max(65_535).default(3000),
  host: z.string().min(1).default('127.0.0.1'),
  /** Where the embedded database, files and the generated token live. */
  dataDir: z.string().min(1).default('.tessera'),
  /** A PostgreSQL server instead of the embedded database. */
  databaseUrl: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /**
   * Relays events and cancel requests between the processes on one database over NATS (`nats://host:4222`,
   * several comma-separated for a cluster) instead of PostgreSQL's LISTEN/NOTIFY: both route by
   * conversation; NATS keeps the relay's work off the database.
   */
  relayUrl: z
    .string()
    .refine(
      (urls) =>
        urls
          .split(',')
          .every((url) => /^(nats|tls):\/\/[^\s,]+$/.test(url.trim()) && URL.canParse(url.trim())),
      'A NATS URL (nats://host:4222 or tls://…), or several separated by commas',
    )
    .optional(),
  openai: z
    .object({
      apiKey: z.string().min(1).optional(),
      baseURL: z.url().optional(),
      api: z.enum(['responses', 'chat']).default('responses'),
      /** Count OpenAI's models' tokens with their encoding (~30 MB once loaded), not ~4 characters a token. */
      exactTokenCounts: z.boolean().default(false),
    })
    .optional(),
  models: z
    .object({ normal: z.string().min(1), high: z.string().min(1) })
    .default({ normal: 'gpt-5-mini', high: 'gpt-5' }),
  budgets: Budgets.default({}),
  /**
   * The most history (estimated tokens) sent with each model call; older whole prompts are left out first,
   * so a long conversation never outgrows the model's context window.
   */
  historyTokens: z.coerce.number().int().positive().default(100_000),
  /**
   * Past the lower of `historyTokens` and `threshold` of the model's context window, the older prompts of a
   * conversation are summarized by the model (the latest `keepRecent` stay whole); without a summary (it
   * failed, or `enabled: false`) they are left out instead.
   */
  compaction: z
    .object({
      enabled: z.boolean().default(true),
      /** Tokens, for models not in `contextWindows`. */
      contextWindow: z.coerce.number().int().positive().default(128_000),
      /** Tokens by concrete model name, e.g. `{ "gpt-5": 400000 }`. */
      contextWindows: z.record(z.string().min(1), z.number().int().positive()).default({}),
      threshold: z.number().gt(0).max(1).default(0.8),
      keepRecent: z.number().int().min(0).default(2),
    })
    .default({ enabled: true, contextWindow: 128_000, contextWindows: {}, threshold: 0.8, keepRecent: 2 }),
  /**
   * How often (ms) this process looks for prompts of processes that died and resumes them; only with a
   * PostgreSQL server (`databaseUrl`), where several processes share the work. 0 turns it off.
   */
  recoverEveryMs: z.coerce.number().int().min(0).default(2_000),
  skillsDirs: z.array(z.string()).default(['.agents/skills', '.claude/skills']),
  auth: z
    .object({
      /** Bearer token → user id. Empty: one local user with a token generated and printed at start. */
      tokens: z.record(z.string(), z.string().min(1)).superRefine(checkTokens).default({}),
      /** Let requests from this machine in without a token, as the local user. Never for other addresses. */
      loopbackWithoutAuth: z.boolean().default(false),
    })
    .default({ tokens: {}, loopbackWithoutAuth: false }),
  limits: z
    .object({
      maxBodyBytes: z.number().int().positive().default(1_000_000),
      maxUploadBytes: z.number().int().positive().default(20_000_000),
      /**
       * The longest text a client can give the model in one go (a prompt's or a message's input, edited
       * arguments of an approval), in characters (UTF-16 code units); longer is a 413 `input_too_large`.
       */
      maxInputChars: z.number().int().positive().default(100_000),
      /**
       * The most a conversation holds, in characters of its record (as JSON): a send to a conversation past
       * it is a 409 `conversation_full` (the user starts a new one), so that no read of a conversation (every
       * prompt's start reads its history) grows without bound.
       */
      maxConversationChars: z.number().int().positive().default(DEFAULT_MAX_CONVERSATION_CHARS),
      /**
       * The most conversations one user has (forks included): one more (a create or a fork) is a 409
       * `too_many_conversations`. Each is read by the user's list pages and searches.
       */
      maxConversations: z.number().int().positive().default(DEFAULT_MAX_CONVERSATIONS),
      /**
       * The most branches of one lineage (a conversation and every fork of it): one more fork is a 409
       * `too_many_branches`. Each fork holds its own copy of the ids of the prompts it shares.
       */
      maxBranches: z.number().int().positive().default(DEFAULT_MAX_BRANCHES),
      ...EventStreamLimits,
    })
    .default({
      maxBodyBytes: 1_000_000,
      maxUploadBytes: 20_000_000,
      maxInputChars: 100_000,
      maxConversationChars: DEFAULT_MAX_CONVERSATION_CHARS,
      maxConversations: DEFAULT_MAX_CONVERSATIONS,
      maxBranches: DEFAULT_MAX_BRANCHES,
      ...EVENT_STREAM_LIMITS,
    }),
  /** Per address and per user, kept in PostgreSQL with `databaseUrl` (shared by its processes); false: none. */
  rateLimits: z.union([z.literal(false), RateLimits]).prefault({}),
  /**
   * The client's address is the connection's, unless the server is behind this many proxies (`true`: one)
   * that each append the address they received to `X-Forwarded-For`: then it is read from there. Never set
   * it without such proxies in front: any client could then pick its address.
   */
  trustProxy: z.union([z.boolean(), z.number().int().min(0)]).default(false),
});
export type ServerConfig = z.infer<typeof ServerConfig>;

export class ConfigError extends Error {}

const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** `TESSERA_RATE_LIMITS`: `false` turns them off, `true` keeps the defaults (anything else is refused). */
const rateLimitsFrom = (value: string | undefined) =>
  value === undefined || value === 'true' ? undefined : value === 'false' ? false : value;
/** `true` or `false` (anything else is left for the schema to refuse). */
const booleanFrom = (value: string | undefined) =>
  value === 'true' || value === 'false' ? value === 'true' : value;
/** `TESSERA_TRUST_PROXY`: true, false or a number of proxies (anything else is left for the schema to refuse). */
const trustProxyFrom = (value: string | undefined) =>
  value === 'true' || value === 'false'
    ? value === 'true'
    : /^\d+$/.test(value ?? '')
      ? Number(value)
      : value;

/** The environment's part of the configuration (it wins over the file). */
export function fromEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const tokens = env.TESSERA_TOKENS
    ? Object.fromEntries(
        env.TESSERA_TOKENS.split(',')
          .filter(Boolean)
          .map((pair) => {
            const [token = '', userId = ''] = pair.split('=');
            return [token.trim(), userId.trim()];
          }),
      )
    : undefined;
  const openai =
    env.OPENAI_API_KEY || env.OPENAI_BASE_URL
      ? defined({
          apiKey: env.OPENAI_API_KEY,
          baseURL: env.OPENAI_BASE_URL,
          api: env.TESSERA_OPENAI_API,
          exactTokenCounts: booleanFrom(env.TESSERA_EXACT_TOKEN_COUNTS),
        })
      : undefined;
  return defined({
    port: env.PORT,
    host: env.HOST,
    dataDir: env.TESSERA_DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    relayUrl: env.TESSERA_RELAY_URL,
    openai,
    models:
      env.TESSERA_MODEL_NORMAL || env.TESSERA_MODEL_HIGH
        ? { normal: env.TESSERA_MODEL_NORMAL ?? 'gpt-5-mini', high: env.TESSERA_MODEL_HIGH ?? 'gpt-5' }
        : undefined,
    budgets: env.TESSERA_MAX_ROUNDS ? { maxRounds: number(env.TESSERA_MAX_ROUNDS) } : undefined,
    historyTokens: env.TESSERA_HISTORY_TOKENS,
    compaction:
      env.TESSERA_COMPACTION || env.TESSERA_CONTEXT_WINDOW
        ? defined({
            enabled: env.TESSERA_COMPACTION === undefined ? undefined : env.TESSERA_COMPACTION !== 'false',
            contextWindow: env.TESSERA_CONTEXT_WINDOW,
          })
        : undefined,
    recoverEveryMs: env.TESSERA_RECOVER_EVERY_MS,
    skillsDirs: env.TESSERA_SKILLS_DIRS?.split(',').filter(Boolean),
    rateLimits: rateLimitsFrom(env.TESSERA_RATE_LIMITS),
    trustProxy: trustProxyFrom(env.TESSERA_TRUST_PROXY),
    auth:
      tokens || env.TESSERA_LOOPBACK_WITHOUT_AUTH
        ? defined({ tokens, loopbackWithoutAuth: env.TESSERA_LOOPBACK_WITHOUT_AUTH === 'true' || undefined })
        : undefined,
  });
}

/** Settings as given (in a config file or to `createServer`): every field optional, as the schema's defaults fill them. */
export type ServerSettings = Omit<
  z.input<typeof ServerConfig>,
  'port' | 'historyTokens' | 'recoverEveryMs'
> & {
  port?: number | string;
  historyTokens?: number | string;
  recoverEveryMs?: number | string;
};

/** Validates settings into a ServerConfig; anything invalid is one error that lists every problem and its source. */
export function parseServerConfig(settings: unknown, source: string): ServerConfig {
  const parsed = ServerConfig.safeParse(settings);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration (from ${source}):\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
