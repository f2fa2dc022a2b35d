/**
 * The files a user attached, as the demo model reads them: the files plugin gives the model one user message
 * per file (its `describeFile` line: name, type, size and, for text, how it starts), never the bytes.
 */
export type Attachment = { name: string; mediaType: string; size: string; summary?: string };

/** `[file file_…: "name", type, size, uploaded by the user] summary` */
const FILE_LINE =
  /^\[file [\w-]{1,80}: "(.{1,255}?)", ([^,\]]{1,100}), ([^,\]]{1,20}), uploaded by the user\](?: (.*))?$/s;

/** The file a user message describes, if it is one (else it is text the user wrote). */
export function parseAttachment(content: string): Attachment | undefined {
  const match = FILE_LINE.exec(content.slice(0, 2_000));
  if (!match) return undefined;
  const [, name, mediaType, size, summary] = match;
  return { name: name!, mediaType: mediaType!, size: size!, ...(summary && { summary }) };
}

/** What a text file's summary says (`Text, 3 lines: how it starts`), or undefined for any other file. */
function textStart(summary: string | undefined): { lines: string; start: string } | undefined {
  const match = summary && /^Text, (\d+ lines?): (.*)$/s.exec(summary);
  return match ? { lines: match[1]!, start: match[2]! } : undefined;
}

function describe(file: Attachment): string {
  const what = `${file.name} (${file.mediaType}, ${file.size})`;
  if (file.summary === 'Empty text.') return `${what}, which is empty`;
  const text = textStart(file.summary);
  if (text) return `${what}: ${text.lines}, starting “${text.start}”`;
  return `${what}, which is not text, so I cannot read it`;
}

/** The demo model's acknowledgement of the files attached to a message. */
export function acknowledge(files: readonly Attachment[]): string {
  if (files.length === 1) return `You attached ${describe(files[0]!)}.`;
  return [`You attached ${files.length} files:`, ...files.map((file) => `- ${describe(file)}.`)].join('\n');
}
