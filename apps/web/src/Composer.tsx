import { type FormEvent, useState } from 'react';
import { AttachButton } from './AttachButton.tsx';
import { AttachmentChips } from './AttachmentChips.tsx';
import { SendIcon, StopIcon, WrenchIcon } from './icons.tsx';
import { fileSize } from './outputs/file-size.ts';
import { SendModePicker } from './SendModePicker.tsx';
import { useFileDrop } from './use-file-drop.ts';
import './outputs/outputs.css';
import './outputs/loop-control.css';

export type SendMode = 'steer' | 'queue';

/**
 * What the message box invites: a message, or — while the assistant works — steering or a follow-up. "help"
 * is the demo model's word only: another model (a real one, a scripted one) is not pointed at it.
 */
const placeholderOf = (whileBusy: boolean, mode: SendMode, demo: boolean) =>
  whileBusy
    ? mode === 'steer'
      ? 'Steer the answer: it reads this at its next step…'
      : 'A follow-up: it runs when this answer ends…'
    : demo
      ? 'Message Tessera… (try "help")'
      : 'Message Tessera…';

/**
 * Splits added files into those that fit the server's upload limit (with those already attached) and the
 * reason the first refused one is refused: a refused file never becomes a chip.
 */
export function fitting(attached: readonly File[], added: readonly File[], maxBytes: number | undefined) {
  let total = attached.reduce((sum, file) => sum + file.size, 0);
  const accepted: File[] = [];
  let refusal: string | undefined;
  for (const file of added) {
    const limit = maxBytes === undefined ? '' : fileSize(maxBytes);
    if (maxBytes !== undefined && file.size > maxBytes)
      refusal ??= `${file.name} (${fileSize(file.size)}) is over the server's limit of ${limit} for uploads.`;
    else if (maxBytes !== undefined && total + file.size > maxBytes)
      refusal ??= `${file.name} (${fileSize(file.size)}) would take the files to send over the server's limit of ${limit} for uploads.`;
    else {
      accepted.push(file);
      total += file.size;
    }
  }
  return { accepted, refusal };
}

/** Messages to try, as buttons: a click puts one in the message box (to send as it is, or to change). */
function Suggestions({
  suggestions,
  onPick,
}: {
  suggestions: readonly string[] | undefined;
  onPick: (text: string) => void;
}) {
  if (!suggestions?.length) return null;
  return (
    <ul className="composer-suggestions" aria-label="Try one of these">
      {suggestions.map((text) => (
        <li key={text}>
          <button
            type="button"
            onClick={(e) => {
              onPick(text);
              e.currentTarget.closest('form')?.querySelector('textarea')?.focus();
            }}
          >
            {text}
          </button>
        </li>
      ))}
    </ul>
  );
}

const ComposerError = ({ error }: { error: string }) => (
  <p role="alert" className="error-text composer-error">
    {error}
  </p>
);

type ComposerProps = {
  /** The server takes files (it runs the files plugin). */
  canAttach?: boolean;
  /** The largest upload the server takes (a message's files together): a larger file is refused when added. */
  maxUploadBytes?: number;
  busyReason?: string;
  /** A prompt runs or waits for approval: the send button is a stop button (cancels it). */
  running?: boolean;
  onSend: (input: string, files: File[]) => Promise<void>;
  /**
   * While `running`: sends the text as steering (the running answer reads it at its next step) or as a
   * follow-up (it runs when the answer ends). Without it, the composer waits while the assistant works.
   */
  onSendWhileBusy?: (input: string, mode: SendMode) => Promise<void>;
  onCancel: () => Promise<void>;
  /** Opens the tool runner (run a tool yourself); it waits, as sending does, while the assistant works. */
  onRunTool?: () => void;
  /** Messages to try (an empty conversation): each a button that puts its text in the message box. */
  suggestions?: readonly string[];
  /** The server answers with the offline demo model: the empty message box suggests its "help". */
  demo?: boolean;
};

/**
 * The message being written (its text, files and the last send's error) and `send`, which empties the box
 * as the message leaves, so what is written while it is on its way is the next message (emptying it once
 * the server took the message would erase that); a send that fails puts its text and files back.
 */
function useDraft() {
  const [input, setInput] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string>();
  const send = async (withFiles: boolean, deliver: (text: string, files: File[]) => Promise<void>) => {
    setError(undefined);
    const text = input;
    const sent = withFiles ? files : [];
    setInput('');
    if (withFiles) setFiles([]);
    try {
      await deliver(text.trim(), sent);
    } catch (e) {
      setError((e as Error).message);
      setInput((current) => (current.trim() ? current : text));
      setFiles((current) => [...sent, ...current]);
    }
  };
  return { input, setInput, files, setFiles, error, setError, send };
}

/**
 * Writes a message with attachments (chosen, dropped or pasted; each removable before sending; files alone
 * are a message too), sends it, or stops the running answer: while one runs the send button is a stop button.
 * A send that fails keeps the text and the files, and says why.
 */
export function Composer(props: ComposerProps) {
  const { input, setInput, files, setFiles, error, setError, send } = useDraft();
  const [stopping, setStopping] = useState(false);
  const [mode, setMode] = useState<SendMode>('steer');
  // While the assistant works, text can still go (as steering or a follow-up); files wait for it to end.
  const whileBusy = Boolean(props.running && props.onSendWhileBusy);
  const disabled = Boolean(props.busyReason) && !whileBusy;
  const canAttach = props.canAttach !== false && !whileBusy;
  const empty = !input.trim() && (files.length === 0 || whileBusy);

  const attach = (added: Iterable<File>) => {
    if (!canAttach) return;
    const { accepted, refusal } = fitting(files, [...added], props.maxUploadBytes);
    setError(refusal);
    setFiles((current) => [...current, ...accepted]);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (empty || disabled) return;
    if (whileBusy) await send(false, async (text) => props.onSendWhileBusy?.(text, mode));
    else await send(true, props.onSend);
  };
  const stop = async () => {
    setStopping(true);
    setError(undefined);
    try {
      await props.onCancel();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStopping(false);
    }
  };
  const drop = useFileDrop({ enabled: canAttach, disabled, onFiles: attach });
  return (
    <form
      className={`composer${drop.dragging ? ' dragging' : ''}`}
      onSubmit={submit}
      aria-label="Send a message"
      {...drop.handlers}
    >
      {props.busyReason && (
        <p className="busy-reason" role="status">
          {props.busyReason}
        </p>
      )}
      {whileBusy && <SendModePicker mode={mode} onChange={setMode} />}
      {drop.dragging && <p className="drop-hint">Drop the files to attach them</p>}
      <Suggestions suggestions={props.suggestions} onPick={setInput} />
      {files.length > 0 && (
        <AttachmentChips
          files={files}
          onRemove={(index) => setFiles((current) => current.filter((_, j) => j !== index))}
        />
      )}
      <div className="composer-row">
        {canAttach && <AttachButton disabled={disabled} onFiles={attach} />}
        {props.onRunTool && (
          <button
            type="button"
            className="icon run-tool"
            aria-label="Run a tool"
            title="Run a tool"
            disabled={disabled || props.running}
            onClick={props.onRunTool}
          >
            <WrenchIcon />
          </button>
        )}
        <textarea
          aria-label="Message"
          placeholder={disabled ? '' : placeholderOf(whileBusy, mode, props.demo === true)}
          value={input}
          disabled={disabled}
          rows={2}
          onChange={(e) => setInput(e.target.value)}
          onPaste={(e) => {
            // Pasted files (a screenshot, files copied in a file manager) are attachments; text pastes as text.
            if (e.clipboardData.files.length === 0 || !canAttach) return;
            e.preventDefault();
            attach(e.clipboardData.files);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) void submit(e);
          }}
        />
        {whileBusy && (
          <button type="submit" className="primary composer-send" disabled={empty}>
            <SendIcon />
            <span>Send</span>
          </button>
        )}
        {props.running ? (
          <button
            type="button"
            className="composer-stop"
            disabled={stopping}
            onClick={() => void stop()}
            title="Stop the answer"
          >
            <StopIcon />
            <span>Stop</span>
          </button>
        ) : (
          <button type="submit" className="primary composer-send" disabled={disabled || empty}>
            <SendIcon />
            <span>Send</span>
          </button>
        )}
      </div>
      {error && <ComposerError error={error} />}
    </form>
  );
}
