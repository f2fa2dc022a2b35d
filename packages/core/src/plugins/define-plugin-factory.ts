import type { z } from 'zod';
import { DefinitionError } from '../errors.ts';
import { isObjectSchema, type ObjectSchema } from '../tools/create-tool.ts';
import { type AnyPlugin, checkPluginId } from './define-plugin.ts';

/** The widest options schema a factory may have. */
type OptionsSchema = ObjectSchema;

/** No keys: no options come from the environment, or all options may be left out. */
type Empty = Record<never, never>;

type Simplify<T> = { [K in keyof T]: T[K] };

/** Which options may come from which environment variables: `{ apiKey: 'ACME_API_KEY' }`. */
export type PluginOptionsEnv<TOptions extends OptionsSchema> = {
  readonly [K in keyof z.input<TOptions>]?: string;
};

/** The options a factory takes: its schema's input, where the options an environment variable gives are optional. */
export type PluginFactoryOptions<TOptions extends OptionsSchema, TEnv = Empty> = Simplify<
  Omit<z.input<TOptions>, keyof TEnv> & Partial<Pick<z.input<TOptions>, keyof TEnv & keyof z.input<TOptions>>>
>;

export type PluginFactoryDefinition<
  TOptions extends OptionsSchema,
  TEnv extends PluginOptionsEnv<TOptions>,
  TPlugin extends AnyPlugin,
> = {
  /** The id of the plugin it creates. */
  id: string;
  /** The options, as a `z.object(...)`: validated (and defaults applied) before `create` sees them. */
  options: TOptions;
  /**
   * Options read from environment variables when the caller leaves them out, so secrets stay out of config
   * files. Their values are strings: use `z.coerce` in `options` for numbers and booleans.
   */
  env?: TEnv;
  /** Makes the plugin from the validated options. */
  create: (options: z.output<TOptions>) => TPlugin;
};

/** Makes a plugin from options: `factory(options)`, with the factory's `id` and options schema beside it. */
export type PluginFactory<TOptions extends OptionsSchema, TEnv, TPlugin extends AnyPlugin> = ((
  ...options: Empty extends PluginFactoryOptions<TOptions, TEnv>
    ? [options?: PluginFactoryOptions<TOptions, TEnv>]
    : [options: PluginFactoryOptions<TOptions, TEnv>]
) => TPlugin) & {
  readonly id: string;
  readonly options: TOptions;
  readonly env: Readonly<TEnv>;
};

/** Marks what `definePluginFactory` returns, in every copy of this package (see `isPlugin`). */
const FACTORY_BRAND = Symbol.for('tessera.plugin-factory');

/**
 * Whether `value` is a plugin factory that `definePluginFactory` returned, of this or of another copy of
 * @tessera/core: call it with its options for the plugin. (A hand-written function that returns a plugin is
 * not one: nothing says what it takes.)
 */
export function isPluginFactory(value: unknown): value is AnyPluginFactory {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[FACTORY_BRAND] === true;
}

/** A plugin factory of any options, as `isPluginFactory` finds one: validates `options` when called. */
export type AnyPluginFactory = ((options?: Record<string, unknown>) => AnyPlugin) & {
  readonly id: string;
  readonly options: OptionsSchema;
  readonly env: Readonly<Record<string, string>>;
};

function checkDefinition(
  definition: PluginFactoryDefinition<OptionsSchema, Record<string, string>, AnyPlugin>,
) {
  const { options, env = {}, create } = definition;
  const id = checkPluginId(definition.id);
  const invalid = (problem: string) => new DefinitionError(`Plugin factory '${id}': ${problem}`);
  if (!isObjectSchema(options)) throw invalid('options must be a zod object schema (z.object({...})).');
  if (typeof create !== 'function') throw invalid('create must be a function.');
  for (const [key, name] of Object.entries(env)) {
    if (!(key in options.shape)) throw invalid(`env names '${key}', which is not one of its options.`);
    if (typeof name !== 'string' || name === '') {
      throw invalid(`env.${key} must be the name of an environment variable.`);
    }
  }
}

/**
 * Defines a plugin that takes options: the returned factory validates them against `options` (filling the
 * ones left out from the environment variables named in `env`) and calls `create` with the result.
 *
 * @throws {DefinitionError} from the factory, naming the plugin and listing every problem, when the
 * options are not valid.
 * @example
 * ```ts
 * export const acmePlugin = definePluginFactory({
 *   id: 'acme',
 *   options: z.object({ apiKey: z.string().min(1), region: z.enum(['eu', 'us']).default('eu') }),
 *   env: { apiKey: 'ACME_API_KEY' },
 *   create: ({ apiKey, region }) => definePlugin({ id: 'acme', tools: [...] }),
 * });
 * createPlatform({ model, plugins: [acmePlugin({ region: 'us' })] }); // apiKey from ACME_API_KEY
 * ```
 */
export function definePluginFactory<
  TOptions extends OptionsSchema,
  TPlugin extends AnyPlugin,
  TEnv extends PluginOptionsEnv<TOptions> = Empty,
>(definition: PluginFactoryDefinition<TOptions, TEnv, TPlugin>): PluginFactory<TOptions, TEnv, TPlugin> {
  checkDefinition(definition as never);
  const { id, options: schema, create } = definition;
  const env = Object.freeze({ ...definition.env }) as Readonly<TEnv>;
  const factory = (given: Record<string, unknown> = {}) => {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new DefinitionError(`Plugin '${id}': its options must be an object.`);
    }
    const options = { ...given };
    const fromEnv = new Set<string>();
    for (const [key, name] of Object.entries(env as Record<string, string>)) {
      // Own keys only: an option the app did not give is not the one every object inherits (`constructor`).
      const givenValue = Object.hasOwn(options, key) ? options[key] : undefined;
      if (givenValue === undefined && process.env[name] !== undefined) {
        options[key] = process.env[name];
        fromEnv.add(key);
      }
    }
    const parsed = schema.safeParse(options);
    if (!parsed.success) throw optionsError(id, parsed.error, env as Record<string, string>, fromEnv);
    const plugin = create(parsed.data);
    if (plugin?.id !== id) {
      throw new DefinitionError(
        `Plugin factory '${id}' created ${plugin?.id ? `a plugin with the id '${plugin.id}'` : 'something that is not a plugin'}; it must create plugin '${id}'.`,
      );
    }
    return plugin;
  };
  Object.defineProperties(factory, {
    id: { value: id, enumerable: true },
    options: { value: schema, enumerable: true },
    env: { value: env, enumerable: true },
    [FACTORY_BRAND]: { value: true },
  });
  return factory as unknown as PluginFactory<TOptions, TEnv, TPlugin>;
}

/**
 * Every problem with the options, one a line, with the environment variable that could give a missing one, or
 * that gave the value when it came from there (a variable set wrongly is not fixed by setting it).
 */
function optionsError(
  id: string,
  error: z.ZodError,
  env: Record<string, string>,
  fromEnv: ReadonlySet<string>,
): DefinitionError {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(options)';
    const key = issue.path[0];
    // Only for a problem with the option itself: inside a given value, the environment is no remedy.
    const variable =
      typeof key === 'string' && issue.path.length === 1 && Object.hasOwn(env, key) ? env[key] : undefined;
    const hint = !variable
      ? ''
      : fromEnv.has(key as string)
        ? ` (from the environment variable ${variable})`
        : ` (give it, or set the environment variable ${variable})`;
    return `  - ${path}: ${issue.message}${hint}`;
  });
  return new DefinitionError(`Plugin '${id}': its options are not valid:\n${lines.join('\n')}`, {
    cause: error,
  });
}
