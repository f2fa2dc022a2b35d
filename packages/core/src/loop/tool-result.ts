import type { PromptOutputToolResult, ToolErrorCode, ToolErrorInfo } from '../model/outputs.ts';

/** An error result as Tessera records it: a code, and a message the model reads. */
export const toolError = (code: ToolErrorCode, message: string): PromptOutputToolResult => ({
  type: 'error',
  error: { code, message } satisfies ToolErrorInfo,
});
