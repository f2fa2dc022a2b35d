import type { Conversation } from './api.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { titleOf } from './conversation-groups.ts';
import type { DeleteRequest } from './use-conversation-deletion.ts';
import { UNDO_MS } from './use-pending-deletes.ts';

/** Asks before deleting a conversation, naming what goes with it (its files, and its triggers if any). */
export function DeleteConversationDialog({
  request,
  withTriggers,
  onCancel,
  onConfirm,
}: {
  request: DeleteRequest;
  /** The server runs the triggers plugin: they go too, and are named once read. */
  withTriggers: boolean;
  onCancel: () => void;
  onConfirm: (conversation: Conversation) => void;
}) {
  const { conversation, triggers } = request;
  return (
    <ConfirmDialog
      title="Delete this conversation?"
      confirmLabel="Delete"
      onCancel={onCancel}
      onConfirm={() => onConfirm(conversation)}
    >
      <p>
        “{titleOf(conversation)}” will be deleted with everything in it: its messages, the files in it
        {withTriggers &&
          (triggers?.length
            ? `, and its ${triggers.length === 1 ? 'trigger' : `${triggers.length} triggers`} (${triggers.join(', ')}), which will not fire again`
            : ', and its triggers')}
        .
      </p>
      <p className="muted">You can undo for {UNDO_MS / 1000} seconds.</p>
    </ConfirmDialog>
  );
}
