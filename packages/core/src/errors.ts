/** Base class of every error Tessera throws on purpose; `code` is stable and safe to match on. */
export class TesseraError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A plugin or tool is defined wrongly (bad id, bad schema, duplicate). Thrown at start-up where possible. */
export class DefinitionError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('definition_error', message, options);
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

/** A plugin's state did not match its schema, on read (stored data) or on write (plugin code). */
export class PluginStateError extends TesseraError {
  readonly pluginId: string;
  constructor(pluginId: string, message: string, options?: ErrorOptions) {
    super('plugin_state_invalid', `Plugin '${pluginId}': ${message}`, options);
    this.pluginId = pluginId;
  }
}

/** An output did not match the schema of its registered variant, or its variant is not registered. */
export class OutputValidationError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('output_invalid', message, options);
  }
}

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
