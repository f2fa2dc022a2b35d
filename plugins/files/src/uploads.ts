import type { ContextItem, Prompt } from '@tessera/core';
import { describeFile, type FileFields, type NewFileOutput, parseFileFields } from './file-output.ts';

/** Where a prompt's uploads are kept in its metadata until core can record them as outputs. */
export const UPLOADS_METADATA_KEY = 'files.uploads';

/**
 * Prompt metadata carrying the files the user uploaded (from `FileService.upload`):
 * `platform.send({ ..., metadata: withUploads(uploads) })`.
 */
export function withUploads(
  uploads: readonly NewFileOutput[],
  metadata: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...metadata, [UPLOADS_METADATA_KEY]: uploads };
}

/** The uploads recorded in a prompt's metadata; entries that are not file references are ignored. */
export function uploadsOf(prompt: Prompt): FileFields[] {
  const listed = prompt.metadata?.[UPLOADS_METADATA_KEY];
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry) => {
    const file = parseFileFields(entry);
    return file?.origin === 'upload' ? [file] : [];
  });
}

/** The summaries of the conversation's uploads, as one context item (none if there are none). */
export function uploadsContext(prompts: readonly Prompt[]): ContextItem[] {
  const lines = prompts.flatMap((prompt) => uploadsOf(prompt).map(describeFile));
  if (lines.length === 0) return [];
  return [{ text: `Files the user uploaded in this conversation:\n${lines.join('\n')}` }];
}
