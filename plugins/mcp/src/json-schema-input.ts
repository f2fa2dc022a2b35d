import { createRequire } from 'node:module';
import type { JsonSchema } from '@tessera/core';
import type { Ajv, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { z } from 'zod';

/**
 * Ajv (CommonJS, so it can be required synchronously inside a zod refinement) is loaded with the first call
 * that validates arguments: a server with no MCP tools called never loads its ~100 modules.
 */
const require = createRequire(import.meta.url);

function dialectClass(dialect: string): typeof Ajv {
  if (dialect === '2020-12')
    return (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
  if (dialect === '2019-09')
    return (require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019;
  return (require('ajv') as typeof import('ajv')).Ajv;
}

// ajv-formats is CommonJS: its plugin is the module itself, and also its `default`.
const addFormats = (ajv: Ajv) => {
  const loaded = require('ajv-formats') as typeof addFormatsModule & { default?: typeof addFormatsModule };
  (loaded.default ?? loaded)(ajv);
};

/** One validator per JSON Schema dialect, made when first needed. Servers' `$id`s are never registered. */
const validators = new Map<string, Ajv>();

function ajvFor(dialect: string): Ajv {
  let ajv = validators.get(dialect);
  if (!ajv) {
    const options = { strict: false, allErrors: true, addUsedSchema: false, validateSchema: false } as const;
    const Dialect = dialectClass(dialect);
    ajv = new Dialect(options);
    addFormats(ajv);
    validators.set(dialect, ajv);
  }
  return ajv;
}

const dialectOf = (schema: JsonSchema): string => {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return declared.includes('2020-12') ? '2020-12' : declared.includes('2019-09') ? '2019-09' : 'draft-07';
};

/** `/a/0/b` (a JSON Pointer into the arguments) as a path: `['a', 0, 'b']`. */
const pathOf = (pointer: string): (string | number)[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
        .map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * A tool's `input` that validates arguments against a JSON Schema with Ajv, for `createTool({ jsonSchema })`:
 * invalid arguments go back to the model as an `invalid_arguments` error naming each problem, before any
 * approval is asked. Compiled at the first call, so listing many tools costs nothing; a schema Ajv cannot
 * compile (an unknown dialect, a broken `$ref`) is not checked here, and the server's own check applies.
 */
export function jsonSchemaInput(schema: JsonSchema) {
  let validate: ValidateFunction | null | undefined;
  return z.looseObject({}).superRefine((value, ctx) => {
    if (validate === undefined) {
      try {
        validate = ajvFor(dialectOf(schema)).compile(schema);
      } catch {
        validate = null;
      }
    }
    if (validate === null || validate(value)) return;
    for (const error of validate.errors ?? []) {
      const missing =
        error.keyword === 'required' ? (error.params as { missingProperty?: string }) : undefined;
      const path = pathOf(error.instancePath);
      ctx.addIssue({
        code: 'custom',
        path: missing?.missingProperty ? [...path, missing.missingProperty] : path,
        message: missing?.missingProperty ? 'is required' : (error.message ?? 'is not valid'),
      });
    }
  });
}
