import { useCallback, useEffect, useState } from 'react';
import type { Api, BlueprintInfo, SkillInfo, Trigger } from '../api.ts';
import { GoalPanel } from '../goals/GoalPanel.tsx';
import type { GoalHandle } from '../goals/use-goal.ts';
import { Blueprints } from './Blueprints.tsx';
import { McpServers } from './McpServers.tsx';
import { Skills } from './Skills.tsx';
import { Triggers } from './Triggers.tsx';

/** The plugins that have a panel, by id, with the panel's title. */
const PANELS = {
  goals: 'Goal',
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

/**
 * The conversation's triggers (pause, resume, delete), the skills catalogue (activate one), the MCP servers
 * and the blueprints (read the steps, delete your own): each only when its plugin is on the server.
 */
export function SidePanel({
  api,
  conversationId,
  version,
  goal,
  onShowCall,
  plugins,
  id,
  onClose,
}: {
  api: Api;
  conversationId: string;
  version: number;
  /** The conversation's goal (useGoal), when the server has the goals plugin. */
  goal?: GoalHandle;
  /** Brings the record's call waiting for a decision into view (a goal paused for approval). */
  onShowCall?: (promptId?: string) => void;
  /** The ids of the server's plugins (`/api/me`). */
  plugins: readonly string[];
  id?: string;
  /** Closes the panel where it is an overlay (narrow screens); the button shows only there. */
  onClose?: () => void;
}) {
  const [triggers, setTriggers] = useState<Trigger[]>([]);
  const [skills, setSkills] = useState<SkillInfo[]>([]);
  const [blueprints, setBlueprints] = useState<BlueprintInfo[]>([]);
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
      {has('goals') && goal && (
        <GoalPanel
          key={conversationId}
          api={api}
          conversationId={conversationId}
          handle={goal}
          onShowCall={onShowCall}
        />
      )}
      {withTriggers && (
        <Triggers
          triggers={triggers}
          onPause={(triggerId, pause) => act(api.pauseTrigger(triggerId, pause))}
          onDelete={(triggerId) => act(api.deleteTrigger(triggerId))}
        />
      )}
      {withSkills && (
        <Skills skills={skills} onActivate={(name) => act(api.activateSkill(conversationId, name))} />
      )}
      {has('mcp') && <McpServers api={api} version={version} />}
      {withBlueprints && (
        <Blueprints
          blueprints={blueprints}
          onDelete={(blueprintId) => act(api.deleteBlueprint(blueprintId))}
        />
      )}
    </aside>
  );
}
