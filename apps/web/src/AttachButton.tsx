import { PaperclipIcon } from './icons.tsx';

/** The paperclip: chooses files to attach (the same file can be chosen again). */
export function AttachButton({
  disabled,
  onFiles,
}: {
  disabled: boolean;
  onFiles: (files: Iterable<File>) => void;
}) {
  return (
    <label className="attach" title="Attach files">
      <span className="visually-hidden">Attach files</span>
      <PaperclipIcon />
      <input
        type="file"
        multiple
        disabled={disabled}
        onChange={(e) => {
          onFiles(e.target.files ?? []);
          e.target.value = ''; // the same file can be chosen again
        }}
      />
    </label>
  );
}
