/**
 * Every error class of @tessera/core. Match them with `X.is(error)`, not `instanceof`: an app can end up
 * with two copies of this package (two versions, or two bundles), and `instanceof` only knows one.
 */

/** Marks Tessera errors of every copy of this package: `Symbol.for` returns the same symbol to all of them. */
const BRAND = Symbol.for('tessera.error');

const isBranded = (value: unknown): boolean => typeof value === 'object' && value !== null && BRAND in value;

/** Base class of every error Tessera throws on purpose; `code` is stable and safe to match on. */
export class TesseraError extends Error {
  static {
    // On the prototype rather than each instance: subclasses inherit it, and it stays out of logged errors.
    Object.defineProperty(TesseraError.prototype, BRAND, { value: true });
  }

  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /**
   * Whether `value` is an error of this class or of a subclass, even one made by another copy of
   * @tessera/core (where `instanceof` is false). Subclasses inherit it and check for themselves: a class
   * of another copy counts when it has the same name, so every error class needs a name of its own.
   *
   * @example
   * ```ts
   * if (NotFoundError.is(error)) return c.json({ error: error.message }, 404);
   * ```
   */
  static is<T extends TesseraError>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: inherited by subclasses, which check for their own class
    return isInstance(this, value);
  }
}

function isInstance(errorClass: abstract new (...args: never[]) => TesseraError, value: unknown): boolean {
  if (value instanceof errorClass) return true;
  if (!isBranded(value)) return false;
  if (errorClass === TesseraError) return true;
  // The branded part of the prototype chain is the value's class up to (its copy of) TesseraError.
  for (
    let proto = Object.getPrototypeOf(value);
    proto && BRAND in proto;
    proto = Object.getPrototypeOf(proto)
  ) {
    if (Object.hasOwn(proto, 'constructor') && proto.constructor.name === errorClass.name) return true;
  }
  return false;
}

/** A plugin or tool is defined wrongly (bad id, bad schema, duplicate). Thrown at start-up where possible. */
export class DefinitionError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('definition_error', message, options);
  }
}

/** The codes a tool may end its call with by throwing a `ToolCallError`. */
export type ToolCallErrorCode = 'tool_failed' | 'cancelled' | 'timeout';

/**
 * What a tool throws to end its call with an error code other than `tool_failed`: `cancelled` when what the
 * call waited on was cancelled (a sub-agent, a job), `timeout` when it took too long. The model reads the
 * message; the record keeps the code. Any other throw is `tool_failed`; so is this with another code.
 */
export class ToolCallError extends TesseraError {
  declare readonly code: ToolCallErrorCode;
  constructor(code: ToolCallErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}

/** Something asked for does not exist (or belongs to another user, which looks the same from outside). */
export class NotFoundError extends TesseraError {
  constructor(message: string) {
    super('not_found', message);
  }
}

/** The request conflicts with the current state: a busy conversation, an already-decided approval. */
export class ConflictError extends TesseraError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * The conversation holds as much as a conversation may (`PlatformOptions.maxConversationChars`): no prompt
 * starts in it any more. Start a new conversation (a fork of it is as full as it is).
 */
export class ConversationFullError extends TesseraError {
  readonly conversationId: string;
  constructor(conversationId: string, maxChars: number) {
    super(
      'conversation_full',
      `Conversation ${conversationId} has reached its maximum length (${maxChars.toLocaleString('en-US')} characters of record): start a new conversation, or fork this one at an earlier message.`,
    );
    this.conversationId = conversationId;
  }
}

/** A second prompt was sent while one is running or waiting for approval in the same conversation. */
export class ConversationBusyError extends TesseraError {
  readonly conversationId: string;
  readonly activePromptId: string;
  constructor(conversationId: string, activePromptId: string) {
    super(
      'conversation_busy',
      `Conversation ${conversationId} already has prompt ${activePromptId} running or waiting for approval; wait for it to finish, or cancel it.`,
    );
    this.conversationId = conversationId;
    this.activePromptId = activePromptId;
  }
}

/**
 * A plugin's state did not match its schema, on read (stored data) or on write (plugin code), or could not
 * be brought to the plugin's state version: `fromVersion` is the stored state's version and `toVersion` the
 * plugin's, when versions were involved.
 */
export class PluginStateError extends TesseraError {
  readonly pluginId: string;
  readonly fromVersion?: number;
  readonly toVersion?: number;
  constructor(
    pluginId: string,
    message: string,
    options?: ErrorOptions & { fromVersion?: number; toVersion?: number },
  ) {
    super('plugin_state_invalid', `Plugin '${pluginId}': ${message}`, options);
    this.pluginId = pluginId;
    if (options?.fromVersion !== undefined) this.fromVersion = options.fromVersion;
    if (options?.toVersion !== undefined) this.toVersion = options.toVersion;
  }
}

/** Where a plugin's own code failed: a hook the platform calls, or background work it reported. */
export type PluginPhase = 'prepare' | 'start' | 'stop' | 'background';

/** A plugin's own code threw something that is not a Tessera error; the original is the `cause`. */
export class PluginError extends TesseraError {
  readonly pluginId: string;
  readonly phase: PluginPhase;
  constructor(pluginId: string, cause: unknown, phase: PluginPhase = 'prepare') {
    const where = phase === 'background' ? 'in its background work' : `in ${phase}()`;
    super('plugin_error', `Plugin '${pluginId}' failed ${where}: ${errorMessage(cause)}`, { cause });
    this.pluginId = pluginId;
    this.phase = phase;
  }
}

/** An output did not match the schema of its registered variant, or its variant is not registered. */
export class OutputValidationError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('output_invalid', message, options);
  }
}

export type ModelErrorKind =
  | 'rate_limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'bad_request'
  | 'authentication'
  | 'context_length'
  | 'content_filter'
  | 'other';

/** A model call that failed. `retryable` says whether trying the same request again may succeed. */
export class ModelError extends TesseraError {
  readonly kind: ModelErrorKind;
  readonly retryable: boolean;
  readonly status?: number;
  constructor(
    message: string,
    options: { kind?: ModelErrorKind; retryable?: boolean; status?: number; cause?: unknown } = {},
  ) {
    super('model_error', message, { cause: options.cause });
    this.kind = options.kind ?? 'other';
    this.retryable = options.retryable ?? false;
    this.status = options.status;
  }
}

/** A write with `expectedVersion` found another version: someone else wrote first. */
export class VersionConflictError extends TesseraError {
  constructor(namespace: string, id: string) {
    super(
      'version_conflict',
      `Record '${namespace}/${id}' was changed by someone else; read it again and retry.`,
    );
  }
}

/** The consumer of an event stream fell too far behind; the platform itself was not affected. */
export class EventStreamOverflowError extends TesseraError {
  constructor(limit: number) {
    super('event_stream_overflow', `The event stream fell more than ${limit} events behind and was closed.`);
  }
}

/**
 * A readable message for anything thrown: an error's message, a string as it is, and for every other value a
 * short description of it. Never empty, and never throws (not even for a BigInt, a circular object or a
 * hostile proxy), since it is what error handlers call.
 */
export function errorMessage(error: unknown): string {
  try {
    if (typeof error === 'string') return error === '' ? 'Threw an empty string' : error;
    if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
      const { message } = error as { message: unknown };
      if (typeof message === 'string' && message.trim() !== '') return message;
      if (error instanceof Error) return `${error.name || 'Error'} with no message`;
    }
    return `Threw a non-Error value: ${describeValue(error)}`;
  } catch {
    return 'Threw a value that cannot be described';
  }
}

const MAX_DESCRIPTION = 500;

function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return `function ${value.name || '(anonymous)'}`;
    case 'object': {
      if (value === null) return 'null';
      const seen = new Set<object>();
      const json = JSON.stringify(value, (_key, inner: unknown) => {
        if (typeof inner === 'bigint') return `${inner}n`;
        if (typeof inner === 'object' && inner !== null) {
          if (seen.has(inner)) return '[Circular]';
          seen.add(inner);
        }
        return inner;
      });
      const text = json ?? Object.prototype.toString.call(value);
      return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
    }
    default:
      return String(value);
  }
}

/** A plugin's hook (`hooks.*`, a guardrail or a permission policy) threw, or returned what core refuses. */
export class HookError extends TesseraError {
  readonly pluginId: string;
  readonly hook: string;
  constructor(pluginId: string, hook: string, cause: unknown) {
    super('hook_failed', `Plugin '${pluginId}': its ${hook} hook failed: ${errorMessage(cause)}`, { cause });
    this.pluginId = pluginId;
    this.hook = hook;
  }
}

/**
 * The arguments given with an approval (`approve(id, { input })`) do not match the tool's schema; `issues`
 * lists each problem. Nothing was recorded: the call still waits for approval.
 */
export class ApprovalInputError extends TesseraError {
  readonly toolCallId: string;
  readonly issues: string;
  constructor(toolCallId: string, toolId: string, issues: string) {
    super(
      'invalid_approval_input',
      `The edited arguments of tool call ${toolCallId} do not match the schema of '${toolId}':\n${issues}`,
    );
    this.toolCallId = toolCallId;
    this.issues = issues;
  }
}
