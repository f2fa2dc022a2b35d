import { useCallback, useEffect, useState } from 'react';
import type { Api, BlueprintInfo, SkillInfo, Trigger } from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { McpServers } from './McpServers.tsx';

/** The plugins that have a panel, by id, with the panel's title. */
const PANELS = {
  triggers: 'Triggers',
  skills: 'Skills',
  blueprints: 'Blueprints',
  mcp: 'MCP servers',
} as const;

/** The panels of the plugins the server runs (a server without a plugin has no routes for it). */
export const panelsOf = (plugins: readonly string[]) =>
  (Object.keys(PANELS) as (keyof typeof PANELS)[]).filter((id) => plugins.includes(id));

/** The panel's accessible name: "Triggers, Skills and Blueprints". */
export const panelLabel = (plugins: readonly string[]) => {
  const label = panelsOf(plugins).map((id) => PANELS[id]);
  return label.length > 1 ? `${label.slice(0, -1).join(', ')} and ${label.at(-1)}` : (label[0] ?? '');
};

type Blueprint = BlueprintInfo;

const when = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : '';

/**
 * The conversation's triggers (pause, resume, delete), the skills catalogue (activate one), the MCP servers
 * and the blueprints (read the steps, delete your own): each only when its plugin is on the server.
 */
export function SidePanel({
  api,
  conversationId,
  version,
  plugins,
  id,
  onClose,
}: {
  api: Api;
  conversationId: string;
  version: number;
  /** The ids of the server's plugins (`/api/me`). */
  plugins: readonly string[];
  id?: string;
  /** Closes the panel where it is an overlay (narrow screens); the button shows only there. */
  onClose?: () => void;
}) {
  const [triggers, setTriggers] = useState<Trigger[]>([]);
  const [skills, setSkills] = useState<SkillInfo[]>([]);
  const [blueprints, setBlueprints] = useState<Blueprint[]>([]);
  const [confirming, setConfirming] = useState<Blueprint>();
  const [error, setError] = useState<string>();
  const panels = panelsOf(plugins);
  const has = (panel: keyof typeof PANELS) => panels.includes(panel);
  const [withTriggers, withSkills, withBlueprints] = [has('triggers'), has('skills'), has('blueprints')];
  const load = useCallback(async () => {
    const [t, s, b] = await Promise.all([
      withTriggers ? api.triggers(conversationId) : [],
      withSkills ? api.skills(conversationId) : [],
      withBlueprints ? api.blueprints() : [],
    ]);
    setTriggers(t);
    setSkills(s);
    setBlueprints(b);
  }, [api, conversationId, withTriggers, withSkills, withBlueprints]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes when a prompt ends: reload then
  useEffect(() => {
    void load().catch(() => {});
  }, [load, version]);
  const act = (action: Promise<unknown>) =>
    void action.then(
      () => {
        setError(undefined);
        return load();
      },
      (e: Error) => setError(e.message),
    );
  if (panels.length === 0) return null;
  return (
    <aside className="side-panel" id={id} aria-label={panelLabel(plugins)}>
      {onClose && (
        <button type="button" className="icon panel-close" aria-label="Close the panel" onClick={onClose}>
          ×
        </button>
      )}
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
      {withTriggers && (
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
                      <button
                        type="button"
                        onClick={() => act(api.pauseTrigger(trigger.id, trigger.status === 'active'))}
                      >
                        {trigger.status === 'active' ? 'Pause' : 'Resume'}
                      </button>
                    )}
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete trigger ${trigger.name}`}
                      onClick={() => act(api.deleteTrigger(trigger.id))}
                    >
                      Delete
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {withSkills && (
        <section>
          <h2>Skills</h2>
          {skills.length === 0 && <p className="empty">No skills installed.</p>}
          <ul>
            {skills.map((skill) => (
              <li key={skill.name} className={skill.active ? 'skill active' : 'skill'}>
                <strong>{skill.name}</strong>{' '}
                {skill.active && <span className="badge badge-success">active</span>}
                <span className="muted">{skill.description}</span>
                {!skill.active && (
                  <div className="row">
                    <button
                      type="button"
                      aria-label={`Activate skill ${skill.name}`}
                      onClick={() => act(api.activateSkill(conversationId, skill.name))}
                    >
                      Activate
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {has('mcp') && <McpServers api={api} version={version} />}
      {withBlueprints && (
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
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this blueprint?"
          confirmLabel="Delete blueprint"
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            setConfirming(undefined);
            act(api.deleteBlueprint(confirming.id));
          }}
        >
          <p>
            “{confirming.title}” will be gone for good; the assistant will no longer find it. Conversations
            that used it keep what they did.
          </p>
        </ConfirmDialog>
      )}
    </aside>
  );
}
