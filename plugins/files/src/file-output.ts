import { defineOutput, type NewOutput, type OutputOf } from '@tessera/core';
import { z } from 'zod';
import { formatBytes } from './errors.ts';

/** A file's own fields, as recorded in the `file` output and in the plugin's ownership record. */
export const fileFields = {
  /** The file's id in the conversation: what `files.read` takes. */
  fileId: z.string().regex(/^file_[A-Za-z0-9_-]{1,64}$/),
  /** For display only; never used to build a path. */
  name: z.string().min(1).max(255),
  mediaType: z.string().min(3),
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the bytes, checked again whenever they are read. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  storage: z.object({ store: z.string().min(1), key: z.string().min(1) }),
  /** What the model reads about the file: given by the tool, or derived from the start of a text file. */
  summary: z.string().optional(),
  origin: z.enum(['tool', 'upload']),
};

const FileFields = z.object(fileFields);
export type FileFields = z.infer<typeof FileFields>;

/** The one line the model reads about a file: never its bytes. */
export function describeFile(file: FileFields): string {
  const by = file.origin === 'upload' ? 'uploaded by the user' : 'from a tool';
  const header = `[file ${file.fileId}: "${file.name}", ${file.mediaType}, ${formatBytes(file.size)}, ${by}]`;
  return file.summary ? `${header} ${file.summary}` : header;
}

/**
 * The `file` output: a reference to stored bytes, projected as a text summary: from the user for a file
 * they uploaded with their input, from the assistant for a file a tool produced.
 */
export const fileOutput = defineOutput({
  type: 'file',
  fields: fileFields,
  project: (file, { bound }) => [
    {
      type: 'message',
      role: file.origin === 'upload' ? 'user' : 'assistant',
      content: bound(describeFile(file)),
    },
  ],
});

export type FileOutput = OutputOf<typeof fileOutput>;
export type NewFileOutput = NewOutput<FileOutput>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    file: FileOutput;
  }
}

/** Parses file fields from untrusted places (metadata, records); `undefined` if they do not match. */
export const parseFileFields = (value: unknown): FileFields | undefined => {
  const parsed = FileFields.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};
