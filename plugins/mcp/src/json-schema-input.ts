import type { JsonSchema } from '@tessera/core';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { z } from 'zod';

// ajv-formats is CommonJS: its default export arrives as the module object under some resolutions.
const addFormats = ((addFormatsImport as { default?: unknown }).default ??
  addFormatsImport) as typeof addFormatsImport.default;

/** One validator per JSON Schema dialect, made when first needed. Servers' `$id`s are never registered. */
const validators = new Map<string, Ajv>();

function ajvFor(dialect: string): Ajv {
  let ajv = validators.get(dialect);
  if (!ajv) {
    const options = { strict: false, allErrors: true, addUsedSchema: false, validateSchema: false } as const;
    const Dialect = dialect === '2020-12' ? Ajv2020 : dialect === '2019-09' ? Ajv2019 : Ajv;
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
