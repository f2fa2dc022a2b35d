import { useCallback, useEffect, useState } from 'react';
import type { Api, BlueprintInfo, SkillInfo, Trigger } from '../api.ts';

/** The conversation's triggers (pause, resume, delete), the skills catalogue, and the blueprints. */
export function SidePanel({
  api,
  conversationId,
  version,
}: {
  api: Api;
  conversationId: string;
  version: number;
}) {
  const [triggers, setTriggers] = useState<Trigger[]>([]);
  const [skills, setSkills] = useState<SkillInfo[]>([]);
  const [blueprints, setBlueprints] = useState<BlueprintInfo[]>([]);
  const load = useCallback(async () => {
    const [t, s, b] = await Promise.all([
      api.triggers(conversationId),
      api.skills(conversationId),
      api.blueprints(),
    ]);
    setTriggers(t);
    setSkills(s);
    setBlueprints(b);
  }, [api, conversationId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes when a prompt ends: reload then
  useEffect(() => {
    void load().catch(() => {});
  }, [load, version]);
  return (
    <aside className="side-panel" aria-label="Triggers, skills and blueprints">
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
                    onClick={() => void api.pauseTrigger(trigger.id, trigger.status === 'active').then(load)}
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
    </aside>
  );
}
