import { type Operation, operationAt, type Schema, type Validator } from './document.ts';
import type { RawResponse } from './send.ts';

export type Expectations = {
  operations: readonly Operation[];
  validate: Validator;
  /** The document's error schema: of a route's 404 where no route is, and of the global statuses. */
  errorSchema: Schema;
  /** What only other users' data holds (their ids, their texts): no answer to the fuzzer may show one. */
  secrets: readonly string[];
};

/**
 * Statuses a request may get whatever its route documents: 413 for a body over the server's limit, checked
 * before any route is chosen (a route that takes no body documents none).
 */
const globalStatus = (status: number, sentBody: boolean) => status === 413 && sentBody;

/**
 * What a path no operation has may get: 404, unless what every request under /api/ goes through first (the
 * body limit, the rate limits, authentication) refuses it before the router looks.
 */
const NO_ROUTE = new Set([401, 403, 404, 429]);

/** A request target the Node adapter refuses before the app sees it (a backslash in the path): a 400. */
const unreadable = (path: string) => path.split('?')[0]!.includes('\\');

/** What is wrong with the answer to a request (nothing: an empty list). */
export function problemsWith(
  request: { method: string; path: string; body: Buffer | undefined },
  response: RawResponse,
  expectations: Expectations,
): string[] {
  const { status } = response;
  const sentBody = (request.body?.length ?? 0) > 0;
  const problems: string[] = [];
  if (status >= 500) problems.push(`a server error: ${status} ${response.text.slice(0, 300)}`);
  // What the request carried may come back (`No conversation <id>`); anything else of another user's, never.
  const echo = `${request.path} ${request.body?.toString('utf8') ?? ''}`;
  const leaked = expectations.secrets.filter(
    (secret) => response.text.includes(secret) && !echo.includes(secret),
  );
  if (leaked.length > 0)
    problems.push(`shows another user's ${leaked.join(', ')}: ${response.text.slice(0, 300)}`);
  const refused = unreadable(request.path);
  const target = refused ? undefined : operationAt(expectations.operations, request.method, request.path);
  const error = { 'application/json': expectations.errorSchema };
  const documented = target
    ? target.responses[String(status)]
    : (refused ? status === 400 : NO_ROUTE.has(status))
      ? error
      : undefined;
  const media = documented ?? (globalStatus(status, sentBody) ? error : undefined);
  const where = target ? `${target.method} ${target.path}` : 'a path no operation has';
  if (!media) return [...problems, `${status} is not a status of ${where}`];
  return [
    ...problems,
    ...bodyProblems(response, media, expectations.validate).map((p) => `${status} of ${where}: ${p}`),
  ];
}

/** Whether the body is of a documented media type and valid against its schema. */
function bodyProblems(
  response: RawResponse,
  media: Record<string, Schema | undefined>,
  validate: Validator,
): string[] {
  const types = Object.keys(media);
  if (types.length === 0)
    return response.text === '' ? [] : [`a body where none is documented: ${response.text.slice(0, 200)}`];
  const type = response.contentType.split(';')[0]!.trim().toLowerCase();
  // A download is of the file's own type: documented as bytes (application/octet-stream), any type goes.
  if (!(type in media))
    return 'application/octet-stream' in media
      ? []
      : [`content type '${type}', documented: ${types.join(', ')}`];
  const schema = media[type];
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [`not JSON: ${response.text.slice(0, 200)}`];
    }
    const invalid = schema && validate(schema, body);
    return invalid ? [`${invalid}, in ${response.text.slice(0, 500)}`] : [];
  }
  if (type === 'text/event-stream') return eventProblems(response, schema, validate);
  return [];
}

/** An event stream's events up to `ready`: each valid JSON, each but `ready` and `reset` of the documented schema. */
function eventProblems(response: RawResponse, schema: Schema | undefined, validate: Validator): string[] {
  const events = response.events ?? [];
  if (events.at(-1)?.event !== 'ready')
    return [`the stream did not open with 'ready': ${response.text.slice(0, 200)}`];
  return events.flatMap((event) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return [`event '${event.event}' is not JSON: ${event.data.slice(0, 200)}`];
    }
    if (event.event === 'ready' || event.event === 'reset' || !schema) return [];
    const invalid = validate(schema, data);
    return invalid ? [`event '${event.event}': ${invalid}`] : [];
  });
}
