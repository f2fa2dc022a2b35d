import { useCallback, useEffect, useState } from 'react';
import type { Api, BlueprintInfo, SkillInfo, Trigger } from '../api.ts';
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

/**
 * The conversation's triggers (pause, resume, delete), the skills catalogue, the MCP servers and the
 * blueprints: each only when its plugin is on the server.
 */
export function SidePanel({
  api,
  conversationId,
  version,
  plugins,
}: {
  api: Api;
  conversationId: string;
  version: number;
  /** The ids of the server's plugins (`/api/me`). */
  plugins: readonly string[];
}) {
  const [triggers, setTriggers] = useState<Trigger[]>([]);
  const [skills, setSkills] = useState<SkillInfo[]>([]);
  const [blueprints, setBlueprints] = useState<BlueprintInfo[]>([]);
  const panels = panelsOf(plugins);
  const has = (id: keyof typeof PANELS) => panels.includes(id);
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
  if (panels.length === 0) return null;
  const label = panels.map((id) => PANELS[id]);
  return (
    <aside
      className="side-panel"
      aria-label={label.length > 1 ? `${label.slice(0, -1).join(', ')} and ${label.at(-1)}` : label[0]}
    >
      {withTriggers && (
        <section>
          <h2>Triggers</h2>
          {triggers.length === 0 && <p className="empty">None. Try “remind me in 1 minute to stretch”.</p>}
          <ul>
            {triggers.map(({ trigger, description }) => (
              <li key={trigger.id} className={`trigger trigger-${trigger.status}`}>
                <strong>{trigger.name}</strong>
                <span className="muted">{description}</span>
                <span className="badge">{trigger.status}</span>
                <div className="row">
                  {trigger.status !== 'ended' && (
                    <button
                      type="button"
                      onClick={() =>
                        void api.pauseTrigger(trigger.id, trigger.status === 'active').then(load)
                      }
                    >
                      {trigger.status === 'active' ? 'Pause' : 'Resume'}
                    </button>
                  )}
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void api.deleteTrigger(trigger.id).then(load)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
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
              <li key={blueprint.id}>
                <strong>{blueprint.title}</strong>
                {blueprint.owner === 'shared' && <span className="badge">shared</span>}
                <span className="muted">{blueprint.summary}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
