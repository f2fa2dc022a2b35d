import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import { DefinitionError, errorMessage } from '../errors.ts';
import type { NewOutput, PromptOutput } from '../model/outputs.ts';
import type { PluginState } from '../model/plugin-state.ts';

/** JSON Schema as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/** The result of evaluating `requireApproval`. */
export type ApprovalRequirement = { required: boolean; reason?: string };

export type ApprovalCheck<TInput, TState> =
  | ApprovalRequirement
  | ((context: {
      input: TInput;
      userId: string;
      state: TState;
    }) => ApprovalRequirement | Promise<ApprovalRequirement>);

/**
 * What plugins add to every tool's input (`displayWidget`, `addFileOutput`, ...), by declaration merging:
 *
 * ```ts
 * declare module '@tessera/core' {
 *   interface ToolInputExtensions { displayWidget: DisplayWidget }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by plugins through declaration merging
export interface ToolInputExtensions {}

/** The generic side channel: outputs a tool emits land in the record right after the tool's own output. */
export type ToolEmitter = {
  /** Appends an output (validated against its registered variant) and returns its id. */
  emit: (output: NewOutput) => Promise<string>;
  /** Replaces an output this prompt emitted earlier (same id, same type), e.g. a progress widget. */
  update: (outputId: string, output: NewOutput) => Promise<void>;
  /** The outputs of the current prompt so far. */
  outputs: () => readonly PromptOutput[];
};

export type ToolInput<TInput, TState = unknown> = {
  userId: string;
  /** The arguments the model sent, parsed and validated by the tool's schema. */
  input: TInput;
  /** The state of the plugin that offered this tool, for this conversation. */
  state: PluginState<TState>;
  /** The app's dependency-injection container. */
  services: DependencyContainer;
  /** Aborted when the prompt is cancelled, the tool times out or a budget runs out. */
  signal: AbortSignal;
  toolCallId: string;
  promptId: string;
  conversationId: string;
} & ToolEmitter &
  ToolInputExtensions;

// biome-ignore lint/suspicious/noExplicitAny: the widest input schema a tool may have
export type ObjectSchema = z.ZodObject<any>;

/** A tool's definition without `state`: what a plugin's bound `tool` helper takes (it adds the plugin's). */
export type BoundToolDefinition<TSchema extends ObjectSchema, TState, TResult> = {
  /** Unique across the app, e.g. `email.send`: letters, digits, `_`, `-` and `.`. */
  id: string;
  /** What the tool does, written for the model. */
  description: string;
  /** The arguments as a `z.object(...)`: gives the JSON Schema for the model and validates its calls. */
  input: TSchema;
  /**
   * The JSON Schema sent to the model instead of the one derived from `input`, for arguments described by a
   * schema from elsewhere (an MCP server, an OpenAPI document) that zod would not reproduce as it is. An
   * object schema (`type: 'object'`), copied when the tool is created. `input` still validates every call:
   * give it a check that agrees, e.g. `z.looseObject({}).superRefine(...)` running a JSON Schema validator.
   */
  jsonSchema?: JsonSchema;
  requireApproval?: ApprovalCheck<z.output<TSchema>, TState>;
  /**
   * No side effects: read-only calls in one batch may run in parallel (everything else runs in order), a call
   * cut off by a crash is run again, and one alone in its batch that ends within 50 ms is written once, with
   * its result (unless `idempotent`: such a call is in the store before it runs).
   */
  readOnly?: boolean;
  /**
   * Running a call again does what running it once did: the tool finds by `toolCallId` what a run of the
   * call started and goes on from there (as a tool that returns `suspendCall()` must). A call cut off by a
   * crash (started, no result) is then run again by `recover()`, approved or not (an approved call with its
   * approved arguments), rather than recorded `interrupted` as a call with side effects is.
   * @default false
   */
  idempotent?: boolean;
  /** Abort the call and record a timeout error after this long. Defaults to the platform's tool timeout. */
  timeoutMs?: number;
  invoke: (input: ToolInput<z.output<TSchema>, TState>) => TResult | Promise<TResult>;
};

export type ToolDefinition<TSchema extends ObjectSchema, TState, TResult> = BoundToolDefinition<
  TSchema,
  TState,
  TResult
> & {
  /**
   * The state schema of the plugin that offers the tool, only for typing `state`: it must be that very
   * schema object (checked by `definePlugin`). Simpler: leave it out and create the tool with the plugin's
   * bound helper, `tools: ({ tool }) => [tool({ ... })]`, which types `state` from the plugin.
   */
  state?: z.ZodType<TState>;
};

export type Tool<TSchema extends ObjectSchema = ObjectSchema, TState = unknown, TResult = unknown> = Readonly<
  ToolDefinition<TSchema, TState, TResult> & {
    readOnly: boolean;
    /** Derived once, when the tool is created: never recomputed per round. */
    jsonSchema: JsonSchema;
  }
>;

// biome-ignore lint/suspicious/noExplicitAny: a tool of any input, state and result
export type AnyTool = Tool<any, any, any>;

const TOOL_ID = /^[a-zA-Z0-9_.-]{1,64}$/;

/** Whether `schema` is a zod object schema (`z.object(...)`), of any copy of zod 4. */
export const isObjectSchema = (schema: unknown): schema is ObjectSchema =>
  (schema as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def?.type === 'object';

/** Defines a tool. Mistakes in the definition are reported here, naming the tool, not at the first call. */
export function createTool<TSchema extends ObjectSchema, TState = unknown, TResult = unknown>(
  definition: ToolDefinition<TSchema, TState, TResult>,
): Tool<TSchema, TState, TResult> {
  const { id, description, input, invoke, timeoutMs } = definition;
  if (typeof id !== 'string' || !TOOL_ID.test(id)) {
    throw new DefinitionError(
      `Tool id '${String(id)}' is not valid: use 1-64 letters, digits, '_', '-' or '.'.`,
    );
  }
  const invalid = (problem: string) => new DefinitionError(`Tool '${id}': ${problem}`);
  if (typeof description !== 'string' || description.trim() === '') {
    throw invalid('a description is required; the model reads it to choose tools.');
  }
  if (!isObjectSchema(input)) throw invalid('input must be a zod object schema (z.object({...})).');
  if (typeof invoke !== 'function') throw invalid('invoke must be a function.');
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalid('timeoutMs must be a positive number of milliseconds.');
  }
  const jsonSchema =
    definition.jsonSchema === undefined
      ? derivedJsonSchema(id, input)
      : givenJsonSchema(id, definition.jsonSchema);
  return Object.freeze({ ...definition, readOnly: definition.readOnly ?? false, jsonSchema });
}

function derivedJsonSchema(id: string, input: ObjectSchema): JsonSchema {
  try {
    const { $schema: _, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'throw' });
    return schema;
  } catch (error) {
    throw new DefinitionError(
      `Tool '${id}': its input schema cannot be expressed as JSON Schema for the model (${errorMessage(error)}).`,
      { cause: error },
    );
  }
}

/** A schema given as it is: a copy (a later change to the caller's object changes nothing), `$schema` left out. */
function givenJsonSchema(id: string, given: unknown): JsonSchema {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new DefinitionError(`Tool '${id}': jsonSchema must be a JSON Schema object.`);
  }
  let copy: JsonSchema;
  try {
    copy = JSON.parse(JSON.stringify(given));
  } catch (error) {
    throw new DefinitionError(`Tool '${id}': jsonSchema is not JSON (${errorMessage(error)}).`, {
      cause: error,
    });
  }
  if (copy.type !== 'object') {
    throw new DefinitionError(
      `Tool '${id}': jsonSchema must describe an object of arguments (type: 'object'), as models require.`,
    );
  }
  const { $schema: _, ...schema } = copy;
  return schema;
}

/**
 * `createTool` bound to one plugin's state: `state` in `invoke` and `requireApproval` has the plugin's state
 * type, without repeating its schema. `definePlugin` hands it to `tools: ({ tool }) => [...]` and `prepare()`.
 */
export type BoundCreateTool<TState> = <TSchema extends ObjectSchema, TResult = unknown>(
  definition: BoundToolDefinition<TSchema, TState, TResult>,
) => Tool<TSchema, TState, TResult>;

/** The bound `tool` helper of a plugin whose state schema is `state`. */
export const bindCreateTool =
  <TState>(state: z.ZodType<TState>): BoundCreateTool<TState> =>
  (definition) =>
    createTool({ ...definition, state });
