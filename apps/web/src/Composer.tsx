import { type FormEvent, useRef, useState } from 'react';
import { PaperclipIcon } from './icons.tsx';

/** Send a message (with attachments), or cancel the running prompt. Disabled, with the reason, while busy. */
export function Composer(props: {
  /** The server takes files (it runs the files plugin). */
  canAttach?: boolean;
  busyReason?: string;
  running?: boolean;
  onSend: (input: string, files: File[]) => Promise<void>;
  onCancel: () => Promise<void>;
}) {
  const [input, setInput] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const disabled = Boolean(props.busyReason);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim() || disabled) return;
    setError(undefined);
    try {
      await props.onSend(input.trim(), files);
      setInput('');
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form className="composer" onSubmit={submit} aria-label="Send a message">
      {props.busyReason && (
        <p className="busy-reason" role="status">
          {props.busyReason}
        </p>
      )}
      {files.length > 0 && <p className="attachments">Attached: {files.map((f) => f.name).join(', ')}</p>}
      <div className="composer-row">
        {props.canAttach !== false && (
          <label className="attach" title="Attach files">
            <span className="visually-hidden">Attach files</span>
            <PaperclipIcon />
            <input
              ref={fileInput}
              type="file"
              multiple
              disabled={disabled}
              onChange={(e) => setFiles([...(e.target.files ?? [])])}
            />
          </label>
        )}
        <textarea
          aria-label="Message"
          placeholder={disabled ? '' : 'Message Tessera… (try "help")'}
          value={input}
          disabled={disabled}
          rows={2}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) void submit(e);
          }}
        />
        {props.running ? (
          <button type="button" className="danger" onClick={() => void props.onCancel()}>
            Cancel
          </button>
        ) : (
          <button type="submit" className="primary" disabled={disabled || !input.trim()}>
            Send
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </form>
  );
}
