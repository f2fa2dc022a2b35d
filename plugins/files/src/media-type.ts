import { TesseraError } from '@tessera/core';
import mime from 'mime';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** The given media type (checked), else the one the name's extension implies, else octet-stream. */
export function mediaTypeOf(name: string, given?: string): string {
  if (given !== undefined) {
    const type = given.split(';')[0]!.trim().toLowerCase();
    if (!MEDIA_TYPE.test(type)) {
      throw new TesseraError('invalid_media_type', `'${given}' is not a media type (like text/plain).`);
    }
    return type;
  }
  return mime.getType(name) ?? 'application/octet-stream';
}

/** A file name safe to show and to offer as a download name: its last path segment, no control characters. */
export function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const base = (String(name).split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (base === '' || base === '.' || base === '..') {
    throw new TesseraError('invalid_file_name', `'${String(name).slice(0, 80)}' is not a usable file name.`);
  }
  return base.slice(0, 255);
}
