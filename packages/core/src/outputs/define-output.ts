import { z } from 'zod';
import { DefinitionError } from '../errors.ts';
import { OutputBase } from '../model/outputs.ts';
import type { ModelMessage } from '../provider/messages.ts';

export type ProjectionContext = {
  /** Cuts a text sent to the model to the configured bound; the full value stays in the record. */
  bound: (text: string) => string;
  /** The bound `bound` cuts to, in characters (the platform's `maxResultChars`). */
  maxChars: number;
};

/**
 * How an output variant appears to the model:
 * - `'skip'`: never (display only, like widgets);
 * - `{ summary }`: as an assistant message with that text (like files);
 * - a function: any messages you like.
 */
export type OutputProjection<T> =
  | 'skip'
  | { summary: (output: T) => string }
  | ((output: T, context: ProjectionContext) => ModelMessage[]);

type VariantShape = Record<string, z.ZodType>;

export type OutputVariant<TType extends string = string, T = OutputBase> = {
  readonly type: TType;
  /** The full schema: the common output fields plus the variant's own. */
  readonly schema: z.ZodType<T>;
  readonly project: OutputProjection<T>;
};

// biome-ignore lint/suspicious/noExplicitAny: a variant of any output type, as stored in a registry
export type AnyOutputVariant = OutputVariant<string, any>;

/** The TypeScript type of a variant defined with `defineOutput`. */
export type OutputOf<V> = V extends OutputVariant<string, infer T> ? T : never;

const TYPE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
const RESERVED = new Set(Object.keys(OutputBase.shape));

/** The type of an output of variant `TType` with fields `TFields`. */
export type VariantOutput<TType extends string, TFields extends VariantShape> = {
  type: TType;
  id: string;
  createdAt: string;
  toolCallId?: string;
} & z.infer<z.ZodObject<TFields>>;

/**
 * Defines an output variant. Give only the variant's own fields; `id`, `createdAt` and `toolCallId` are
 * common to every output and filled in by Tessera.
 *
 * ```ts
 * const note = defineOutput({
 *   type: 'note',
 *   fields: { text: z.string() },
 *   project: { summary: (o) => `Note: ${o.text}` },
 * });
 * ```
 */
export function defineOutput<const TType extends string, const TFields extends VariantShape>(definition: {
  type: TType;
  fields: TFields;
  project: OutputProjection<VariantOutput<TType, TFields>>;
}): OutputVariant<TType, VariantOutput<TType, TFields>> {
  const { type, fields, project } = definition;
  if (typeof type !== 'string' || !TYPE_PATTERN.test(type)) {
    throw new DefinitionError(
      `Output type '${String(type)}' is not valid: use 1-64 lowercase letters, digits, '_', '-' or '.', starting with a letter.`,
    );
  }
  for (const key of Object.keys(fields)) {
    if (RESERVED.has(key)) {
      throw new DefinitionError(
        `Output type '${type}': field '${key}' is set by Tessera and cannot be redefined.`,
      );
    }
  }
  if (project !== 'skip' && typeof project !== 'function' && typeof project?.summary !== 'function') {
    throw new DefinitionError(`Output type '${type}': project must be 'skip', { summary } or a function.`);
  }
  const schema = OutputBase.extend({ type: z.literal(type), ...fields });
  return { type, schema: schema as never, project };
}
