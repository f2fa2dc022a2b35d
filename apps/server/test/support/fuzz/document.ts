import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The JSON Schema of a parameter, a body or a response, as the document has it. */
export type Schema = Record<string, unknown>;

type Media = Record<string, { schema?: Schema }>;
type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
};
type OperationObject = {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Media };
  responses: Record<string, { content?: Media }>;
  security?: unknown[];
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
};

/** One operation of the document, with what a request to it can carry. */
export type Operation = {
  method: string;
  /** The templated path, e.g. `/api/conversations/{id}`. */
  path: string;
  id: string;
  params: { path: ParameterObject[]; query: ParameterObject[]; header: ParameterObject[] };
  body?: { required: boolean; content: Record<string, Schema> };
  /** Status → media type → schema (a status with no content: an empty media map). */
  responses: Record<string, Record<string, Schema | undefined>>;
  /** Whether it needs credentials (the session routes do not). */
  secured: boolean;
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** Every operation of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => {
        const parameters = op.parameters ?? [];
        const inside = (where: ParameterObject['in']) => parameters.filter((p) => p.in === where);
        const body = op.requestBody && {
          required: op.requestBody.required ?? false,
          content: Object.fromEntries(
            Object.entries(op.requestBody.content).map(([type, media]) => [type, media.schema ?? {}]),
          ),
        };
        return {
          method: method.toUpperCase(),
          path,
          id: op.operationId ?? `${method} ${path}`,
          params: { path: inside('path'), query: inside('query'), header: inside('header') },
          ...(body && { body }),
          responses: Object.fromEntries(
            Object.entries(op.responses).map(([status, response]) => [
              status,
              Object.fromEntries(
                Object.entries(response.content ?? {}).map(([type, media]) => [type, media.schema]),
              ),
            ]),
          ),
          secured: op.security === undefined || op.security.length > 0,
        };
      }),
  );
}

/**
 * The operation a request path reaches, as the server sees it: the path normalized as the Node adapter does
 * (dot segments resolved, `%2e%2e` included), then matched segment by segment, literal segments first (Hono
 * prefers static routes). Undefined: no route (a 404).
 */
export function operationAt(operations: readonly Operation[], method: string, rawPath: string) {
  let pathname: string;
  try {
    pathname = new URL(rawPath, 'http://fuzz.invalid').pathname;
  } catch {
    return undefined;
  }
  const segments = pathname.split('/');
  const candidates = operations.filter((op) => {
    if (op.method !== method) return false;
    const template = op.path.split('/');
    return (
      template.length === segments.length &&
      template.every((part, i) => (part.startsWith('{') ? segments[i] !== '' : part === segments[i]))
    );
  });
  const literals = (op: Operation) => op.path.split('/').filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => literals(b) - literals(a))[0];
}

export type Validator = (schema: Schema, value: unknown) => string | undefined;

/**
 * Validates values against the document's schemas (JSON Schema 2020-12, as OpenAPI 3.1 has them), `$ref`s to
 * its components resolved. Answers undefined when valid, else what is wrong.
 */
export function createValidator(document: OpenApiDocument): Validator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'openapi.json', components: document.components ?? {} });
  const compiled = new Map<Schema, ValidateFunction>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'),
      );
      validate = ajv.compile(rebased);
      compiled.set(schema, validate);
    }
    return validate(value) ? undefined : ajv.errorsText(validate.errors, { separator: '; ' });
  };
}
