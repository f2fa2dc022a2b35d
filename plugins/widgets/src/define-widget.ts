import { DefinitionError, errorMessage, type JsonSchema } from '@tessera/core';
import { z } from 'zod';
import { WidgetDataError } from './errors.ts';

/** A kind of widget: its type name (what renderers switch on) and the schema of its data. */
export type Widget<TType extends string = string, TSchema extends z.ZodType = z.ZodType> = {
  readonly type: TType;
  readonly data: TSchema;
  /** The data's JSON Schema, derived once: for renderers and for documentation. */
  readonly jsonSchema: JsonSchema;
  /** Fallback text derived from the data, used when a tool gives none. */
  readonly fallback?: (data: z.output<TSchema>) => string;
};

/** A widget that can describe its own data as text, so `displayWidget` may leave the fallback out. */
export type SelfDescribingWidget<
  TType extends string = string,
  TSchema extends z.ZodType = z.ZodType,
> = Widget<TType, TSchema> & { readonly fallback: (data: z.output<TSchema>) => string };

// biome-ignore lint/suspicious/noExplicitAny: a widget of any type and schema
export type AnyWidget = Widget<string, any>;

/** The data a tool passes for widget `W` (before defaults are applied). */
export type WidgetInput<W extends AnyWidget> = z.input<W['data']>;
/** The data as recorded for widget `W`. */
export type WidgetData<W extends AnyWidget> = z.output<W['data']>;

const WIDGET_TYPE = /^[a-z][a-z0-9_.-]{0,63}$/;

/**
 * Defines a widget once; tools then display it with `displayWidget(widget, data, fallback)`.
 *
 * ```ts
 * const forecast = defineWidget({
 *   type: 'weather.forecast',
 *   data: z.object({ city: z.string(), days: z.array(z.object({ day: z.string(), high: z.number() })) }),
 * });
 * ```
 */
export function defineWidget<const TType extends string, TSchema extends z.ZodType>(definition: {
  type: TType;
  data: TSchema;
  fallback: (data: z.output<TSchema>) => string;
}): SelfDescribingWidget<TType, TSchema>;
export function defineWidget<const TType extends string, TSchema extends z.ZodType>(definition: {
  type: TType;
  data: TSchema;
  fallback?: undefined;
}): Widget<TType, TSchema>;
export function defineWidget(definition: {
  type: string;
  data: z.ZodType;
  fallback?: (data: unknown) => string;
}): Widget {
  const { type, data, fallback } = definition;
  if (typeof type !== 'string' || !WIDGET_TYPE.test(type)) {
    throw new DefinitionError(
      `Widget type '${String(type)}' is not valid: use 1-64 lowercase letters, digits, '_', '-' or '.', starting with a letter.`,
    );
  }
  if (typeof (data as { safeParse?: unknown } | undefined)?.safeParse !== 'function') {
    throw new DefinitionError(`Widget '${type}': data must be a zod schema.`);
  }
  let jsonSchema: JsonSchema;
  try {
    // The record is stored as JSON: data that JSON cannot hold (dates, transforms, ...) is refused here.
    const { $schema: _, ...schema } = z.toJSONSchema(data, { io: 'output', unrepresentable: 'throw' });
    jsonSchema = schema;
  } catch (error) {
    throw new DefinitionError(
      `Widget '${type}': its data schema cannot be stored as JSON (${errorMessage(error)}).`,
      { cause: error },
    );
  }
  return Object.freeze({ type, data, jsonSchema, ...(fallback && { fallback }) });
}

/** Validates data for a widget; a mismatch is a `WidgetDataError` naming the widget and every problem. */
export function parseWidgetData<W extends AnyWidget>(widget: W, data: unknown): WidgetData<W> {
  const parsed = widget.data.safeParse(data);
  if (!parsed.success) {
    throw new WidgetDataError(
      widget.type,
      `The data for widget '${widget.type}' does not match its schema:\n${z.prettifyError(parsed.error)}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}
