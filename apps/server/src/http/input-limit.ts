import { HttpError } from './errors.ts';
import { json } from './routes/shared.ts';
import { ErrorSchema } from './schemas.ts';

const count = new Intl.NumberFormat('en');

/** The 413 of a text over the limit: how long it is, and how long it may be. */
const inputTooLarge = (what: string, length: number, maxChars: number) =>
  new HttpError(
    413,
    'input_too_large',
    `${what} is ${count.format(length)} characters; this server takes at most ${count.format(maxChars)} (limits.maxInputChars).`,
  );

/**
 * Refuses, with a 413 `input_too_large`, a text a client gives the model that is longer than `maxChars`
 * (`limits.maxInputChars`), counted in UTF-16 code units as JavaScript counts a string's length. Every
 * prompt's input is read by plugins on every round: this is what bounds that work, and what is stored.
 */
export function checkInput(input: string | undefined, maxChars: number, what = 'The input'): void {
  if (input !== undefined && input.length > maxChars) throw inputTooLarge(what, input.length, maxChars);
}

/** Deeper than this, tool arguments are refused: no tool's schema nests so deep, and what reads them recurses. */
export const MAX_ARGUMENT_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `max` (walked without recursion). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The same bound for tool arguments a client gives (edited at approval, or a tool run's), measured as the JSON
 * the model will be sent; nested deeper than MAX_ARGUMENT_DEPTH, a 400.
 */
export function checkArguments(input: unknown, maxChars: number, what = 'The edited input'): void {
  if (input === undefined) return;
  if (nestedDeeperThan(input, MAX_ARGUMENT_DEPTH))
    throw new HttpError(
      400,
      'invalid_request',
      `${what} is nested deeper than ${MAX_ARGUMENT_DEPTH} levels.`,
    );
  checkInput(JSON.stringify(input), maxChars, `${what}, as JSON,`);
}

/** The 413 of a route that takes an input, in the OpenAPI document. */
export const tooLargeResponse = json(
  ErrorSchema,
  'The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`)',
);
