import { useState } from 'react';
import type { BlueprintInfo } from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';

/** The saved blueprints: read the steps, delete your own (after a confirmation). */
export function Blueprints({
  blueprints,
  onDelete,
}: {
  blueprints: BlueprintInfo[];
  onDelete: (id: string) => void;
}) {
  const [confirming, setConfirming] = useState<BlueprintInfo>();
  return (
    <>
      <section>
        <h2>Blueprints</h2>
        {blueprints.length === 0 && <p className="empty">None saved yet.</p>}
        <ul>
          {blueprints.map((blueprint) => (
            <li key={blueprint.id} className="blueprint">
              <strong>{blueprint.title}</strong>{' '}
              {blueprint.owner === 'shared' && <span className="badge">shared</span>}
              <span className="muted">{blueprint.summary}</span>
              {blueprint.steps && (
                <details>
                  <summary>Steps</summary>
                  {/* Plain text on purpose: the steps were written by a model, so no links or images load. */}
                  <pre className="blueprint-steps">{blueprint.steps}</pre>
                </details>
              )}
              {blueprint.owner !== 'shared' && (
                <div className="row">
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete blueprint ${blueprint.title}`}
                    onClick={() => setConfirming(blueprint)}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>
      {confirming && (
        <ConfirmDialog
          title="Delete this blueprint?"
          confirmLabel="Delete blueprint"
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            setConfirming(undefined);
            onDelete(confirming.id);
          }}
        >
          <p>
            “{confirming.title}” will be gone for good; the assistant will no longer find it. Conversations
            that used it keep what they did.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
