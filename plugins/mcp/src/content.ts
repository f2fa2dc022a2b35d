import type { ContentBlock, ResourceContents } from '@modelcontextprotocol/sdk/types.js';
import type { ToolInputBase } from '@tessera/core';

/**
 * The files plugin's `addFileOutput`, as this plugin sees it (plugins depend on core only): present on a
 * tool's input when the app has the files plugin.
 */
export type FileSink = (file: {
  name: string;
  mediaType: string;
  content: Uint8Array | string;
  summary?: string;
}) => Promise<{ fileId: string; name: string; mediaType: string; size: number }>;

/** The `addFileOutput` of a tool's input, if the app has the files plugin. */
export const fileSinkOf = (input: ToolInputBase): FileSink | undefined => {
  const sink = (input as { addFileOutput?: unknown }).addFileOutput;
  return typeof sink === 'function' ? (sink as FileSink) : undefined;
};

/** Text resources up to this long are given to the model in the result; longer ones become files. */
export const INLINE_TEXT_CHARS = 8_000;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/gzip': 'gz',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/csv': 'csv',
};

const formatSize = (bytes: number) =>
  bytes < 1000
    ? `${bytes} B`
    : bytes < 1_000_000
      ? `${(bytes / 1000).toFixed(1)} kB`
      : `${(bytes / 1e6).toFixed(1)} MB`;

/** A file name for bytes from a server: the URI's last segment if it has one, else `<base>.<extension>`. */
function fileName(base: string, mediaType: string, uri?: string): string {
  const last = uri?.split(/[/\\]/).filter(Boolean).at(-1);
  if (last && /\.[a-z0-9]{1,8}$/i.test(last)) return last;
  return `${last ?? base}.${EXTENSIONS[mediaType.split(';')[0]!.trim()] ?? 'bin'}`;
}

/**
 * Turns MCP content (a tool's result, a resource's contents, a prompt's messages) into text for the model:
 * text as it is, short text resources inline, and images, audio, binary and long resources as file outputs
 * (through the files plugin) or, without it, a line saying what was left out.
 */
export class ContentWriter {
  readonly #sink: FileSink | undefined;
  readonly #base: string;
  #files = 0;

  /** `base` names files without a name of their own: `<base>-1.png`. */
  constructor(sink: FileSink | undefined, base: string) {
    this.#sink = sink;
    this.#base = base;
  }

  async block(block: ContentBlock): Promise<string> {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return this.#bytes(
          Buffer.from(block.data, 'base64'),
          block.mimeType,
          block.type === 'image' ? 'an image' : 'an audio clip',
        );
      case 'resource':
        return this.resource(block.resource);
      case 'resource_link': {
        const about = [block.mimeType, block.description].filter(Boolean).join(', ');
        return `[resource ${block.uri}: "${block.name}"${about ? `, ${about}` : ''}]`;
      }
      default:
        return `[content of a kind this app does not read: ${(block as { type: string }).type}]`;
    }
  }

  async resource(contents: ResourceContents): Promise<string> {
    const mediaType = contents.mimeType ?? 'application/octet-stream';
    if ('text' in contents && typeof contents.text === 'string') {
      if (contents.text.length <= INLINE_TEXT_CHARS || !this.#sink) {
        return `Resource ${contents.uri}${contents.mimeType ? ` (${contents.mimeType})` : ''}:\n${contents.text}`;
      }
      return this.#bytes(
        contents.text,
        contents.mimeType ?? 'text/plain',
        `the resource ${contents.uri}`,
        contents.uri,
      );
    }
    const blob = (contents as { blob?: unknown }).blob;
    const bytes = Buffer.from(typeof blob === 'string' ? blob : '', 'base64');
    return this.#bytes(bytes, mediaType, `the resource ${contents.uri}`, contents.uri);
  }

  /** Every block's text, one block a paragraph. */
  async blocks(blocks: readonly ContentBlock[]): Promise<string> {
    const parts: string[] = [];
    for (const block of blocks) parts.push(await this.block(block));
    return parts.filter((part) => part !== '').join('\n\n');
  }

  async #bytes(content: Uint8Array | string, mediaType: string, what: string, uri?: string): Promise<string> {
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
    if (!this.#sink) {
      return `[${what} (${mediaType}, ${formatSize(size)}) the server returned, left out: this app keeps no files]`;
    }
    this.#files += 1;
    const file = await this.#sink({
      name: fileName(`${this.#base}-${this.#files}`, mediaType, uri),
      mediaType,
      content,
    });
    return `[${what} (${file.mediaType}, ${formatSize(file.size)}) saved as file ${file.fileId}: "${file.name}"]`;
  }
}
