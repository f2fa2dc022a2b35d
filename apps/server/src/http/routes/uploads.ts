import type { Platform } from '@tessera/core';
import {
  displayName,
  FileServiceToken,
  formatBytes,
  mediaTypeOf,
  type NewFileOutput,
} from '@tessera/plugin-files';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { HttpError } from '../errors.ts';
import { SendPrompt, SendPromptWithFiles } from '../schemas.ts';
import { type Env, parseOr400 } from './shared.ts';

const EXPECTED =
  'send application/json ({ "input": "…" }) or multipart/form-data (fields `input` and `files`)';

const mediaType = (c: Context) => c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Before the route's validators: a send's body is JSON or multipart/form-data, and is there. Anything else is
 * refused saying what is expected (a form-urlencoded body would otherwise pass as a form, without files).
 */
export const sendBodyGate: MiddlewareHandler<Env> = async (c, next) => {
  const type = mediaType(c);
  if (type === 'multipart/form-data' || /^application\/([\w.-]+\+)?json$/.test(type)) return next();
  if (type === '' && (await c.req.text()).trim() === '')
    throw new HttpError(
      400,
      'invalid_request',
      `The body is empty: a prompt needs input text or files; ${EXPECTED}.`,
    );
  throw new HttpError(
    415,
    'unsupported_media_type',
    type
      ? `A body of type ${type} is not taken here: ${EXPECTED}.`
      : `The body has no Content-Type: ${EXPECTED}.`,
  );
};

export type SendFields = z.output<typeof SendPrompt> | z.output<typeof SendPromptWithFiles>;

/** The body of a send (past `sendBodyGate`), validated; the parsed form too, for its files. */
export async function readSend(
  c: Context<Env>,
): Promise<{ fields: SendFields; form?: Record<string, unknown> }> {
  if (mediaType(c) === 'multipart/form-data') {
    const form = await c.req.parseBody({ all: true });
    return { fields: parseOr400(SendPromptWithFiles, form), form };
  }
  return { fields: parseOr400(SendPrompt, await c.req.json()) };
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
  // Every name and type is checked before any file is stored: a bad one refuses the send, leaving nothing.
  const checked = files.map((file) => {
    const name = displayName(file.name || 'upload');
    return { file, name, mediaType: file.type ? mediaTypeOf(name, file.type) : undefined };
  });
  const service = platform.services.resolve(FileServiceToken);
  // So is the user's room for all of them (`save` checks each again, as stores may race).
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const what = checked.length === 1 ? `file "${checked[0]!.name}"` : `${checked.length} files`;
  await service.checkRoom(owner.userId, total, `${what} (${formatBytes(total)})`);
  const outputs: NewFileOutput[] = [];
  try {
    for (const { file, name, mediaType } of checked) {
      const content = new Uint8Array(await file.arrayBuffer());
      outputs.push(await service.upload({ name, mediaType, content }, owner));
    }
  } catch (error) {
    await discardUploads(platform, outputs, owner); // the ones stored before the one that failed
    throw error;
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
