import type { ToolOutput } from '../model/outputs.ts';

/**
 * Tool results that are decisions about a call rather than its failure: they neither count towards
 * `maxConsecutiveToolErrors` nor reset it. A user who rejects calls, or a policy that denies them, has
 * already decided; pausing to ask again would only repeat the question.
 */
const NOT_FAILURES: ReadonlySet<string> = new Set([
  'rejected',
  'denied',
  'skipped',
  'cancelled',
  'budget_exceeded',
]);

/** Whether a call's result counts towards `maxConsecutiveToolErrors`: an error, but not a decision. */
export function isFailure(result: NonNullable<ToolOutput['result']>): boolean {
  if (result.type !== 'error') return false;
  const { error } = result;
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code !== 'string' || !NOT_FAILURES.has(code);
}
