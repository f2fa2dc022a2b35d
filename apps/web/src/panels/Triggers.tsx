import type { Trigger } from '../api.ts';

const when = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : '';

/** The conversation's triggers, each with its schedule and next firing, to pause, resume or delete. */
export function Triggers({
  triggers,
  onPause,
  onDelete,
}: {
  triggers: Trigger[];
  /** Pauses an active trigger (`pause`), or resumes a paused one. */
  onPause: (id: string, pause: boolean) => void;
  onDelete: (id: string) => void;
}) {
  return (
    <section>
      <h2>Triggers</h2>
      {triggers.length === 0 && <p className="empty">None. Try “remind me in 1 minute to stretch”.</p>}
      <ul>
        {triggers.map(({ trigger, description }) => {
          const next = when((trigger as { nextFireAt?: unknown }).nextFireAt);
          return (
            <li key={trigger.id} className={`trigger trigger-${trigger.status}`}>
              <strong>{trigger.name}</strong> <span className="badge">{trigger.status}</span>
              <span className="muted">{description}</span>
              {next && trigger.status === 'active' && <span className="muted">Next: {next}</span>}
              <div className="row">
                {trigger.status !== 'ended' && (
                  <button type="button" onClick={() => onPause(trigger.id, trigger.status === 'active')}>
                    {trigger.status === 'active' ? 'Pause' : 'Resume'}
                  </button>
                )}
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete trigger ${trigger.name}`}
                  onClick={() => onDelete(trigger.id)}
                >
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
