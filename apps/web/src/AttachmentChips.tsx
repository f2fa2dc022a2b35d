import { CloseIcon } from './icons.tsx';
import { fileSize } from './outputs/file-size.ts';

/** The files about to be sent, each with its size and a button to remove it. */
export function AttachmentChips({ files, onRemove }: { files: File[]; onRemove: (index: number) => void }) {
  return (
    <ul className="composer-attachments" aria-label="Attachments to send">
      {files.map((file, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be attached twice
        <li key={`${file.name}-${i}`} className="attachment-chip">
          <span className="chip-name">{file.name}</span>
          <span className="chip-size">{fileSize(file.size)}</span>
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove ${file.name}`}
            onClick={() => onRemove(i)}
          >
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}
