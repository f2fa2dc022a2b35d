import type { Platform } from '@tessera/core';
import { FileServiceToken, type NewFileOutput } from '@tessera/plugin-files';
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { ClientPromptId } from '../schemas.ts';
import { parseOr400 } from './shared.ts';

const FormFields = z.object({
  input: z.string().min(1).max(100_000),
  model: z.enum(['normal', 'high']).default('normal'),
  id: ClientPromptId.optional(),
});

/** The text fields of a multipart prompt, validated like the JSON body. */
export function readForm(form: Record<string, unknown>): z.output<typeof FormFields> {
  return parseOr400(FormFields, { input: form.input, model: form.model, id: form.id });
}

/**
 * Stores each attached file for this user and conversation; they become the prompt's first outputs.
 * `canStore` is false when the server runs without the files plugin: attachments are refused.
 */
export async function storeUploads(
  platform: Platform,
  body: Record<string, unknown>,
  { owner, canStore }: { owner: { userId: string; conversationId: string }; canStore: boolean },
): Promise<NewFileOutput[]> {
  const attached = ([] as unknown[]).concat(body.files ?? []);
  const files = attached.filter((value): value is File => value instanceof File);
  if (files.length !== attached.length)
    throw new HttpError(400, 'invalid_request', 'The `files` field must hold files.');
  if (files.length > 10)
    throw new HttpError(400, 'invalid_request', 'Attach at most 10 files to one message.');
  if (files.length === 0) return [];
  if (!canStore)
    throw new HttpError(
      400,
      'invalid_request',
      'This server runs without the files plugin: it takes no files.',
    );
  const service = platform.services.resolve(FileServiceToken);
  const outputs: NewFileOutput[] = [];
  for (const file of files) {
    outputs.push(
      await service.upload(
        {
          name: file.name || 'upload',
          mediaType: file.type || undefined,
          content: new Uint8Array(await file.arrayBuffer()),
        },
        owner,
      ),
    );
  }
  return outputs;
}

/** Removes uploads stored for a prompt that did not start (their bytes and records). */
export async function discardUploads(
  platform: Platform,
  outputs: readonly NewFileOutput[],
  owner: { userId: string; conversationId: string },
): Promise<void> {
  const service = platform.services.resolve(FileServiceToken);
  for (const output of outputs) await service.discard(output, owner).catch(() => {});
}
