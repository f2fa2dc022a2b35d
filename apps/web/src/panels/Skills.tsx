import type { SkillInfo } from '../api.ts';

/** The skills catalogue: which are active in the conversation, and a button to activate the others. */
export function Skills({ skills, onActivate }: { skills: SkillInfo[]; onActivate: (name: string) => void }) {
  return (
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
                  onClick={() => onActivate(skill.name)}
                >
                  Activate
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
