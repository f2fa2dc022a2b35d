import type { Output } from '../api.ts';
import { FileIcon } from '../icons.tsx';
import { fileSize } from './file-size.ts';

const IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/;

/** The files a user sent with a message, shown in their own bubble: a thumbnail for images, else name and size. */
export function Attachments({
  files,
  fileUrl,
}: {
  files: Output[];
  fileUrl: (fileId: string, inline: boolean) => string;
}) {
  return (
    <ul className="sent-attachments" aria-label="Attachments">
      {files.map((file) => {
        const name = String(file.name);
        const image = IMAGE.test(String(file.mediaType ?? ''));
        return (
          <li key={file.id}>
            <a href={fileUrl(String(file.fileId), false)} download={name} className="sent-attachment">
              {image ? (
                <img src={fileUrl(String(file.fileId), true)} alt="" className="sent-thumb" />
              ) : (
                <FileIcon />
              )}
              <span className="sent-name">{name}</span>
              <span className="sent-size">{fileSize(Number(file.size ?? 0))}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The user's uploads of a prompt, as files again (to send them once more: retry, regenerate, edit). */
export async function uploadsAsFiles(
  files: Output[],
  fileUrl: (fileId: string, inline: boolean) => string,
): Promise<File[]> {
  return Promise.all(
    files.map(async (file) => {
      const response = await fetch(fileUrl(String(file.fileId), false)).catch(() => {
        throw new Error(
          'Cannot reach the Tessera server to send the attachments again. Try again in a moment.',
        );
      });
      if (!response.ok) throw new Error(`The attachment ${String(file.name)} is no longer available.`);
      return new File([await response.blob()], String(file.name), { type: String(file.mediaType ?? '') });
    }),
  );
}
