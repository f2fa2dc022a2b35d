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

/** The same bound for edited tool arguments (any JSON), measured as the JSON the model will be sent. */
export function checkEditedInput(input: unknown, maxChars: number): void {
  if (input === undefined) return;
  let json: string;
  try {
    json = JSON.stringify(input);
  } catch {
    // Parsed JSON has no cycle and no BigInt: only a nesting deeper than the stack takes can fail here.
    throw new HttpError(400, 'invalid_request', 'The edited input is nested too deeply.');
  }
  checkInput(json, maxChars, 'The edited input, as JSON,');
}

/** The 413 of a route that takes an input, in the OpenAPI document. */
export const tooLargeResponse = json(
  ErrorSchema,
  'The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`)',
);
