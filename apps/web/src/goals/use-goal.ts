import { useCallback, useEffect, useState } from 'react';
import type { Goal, GoalApi } from './goal-types.ts';

/** The conversation's goal as the panel and the bar above the record show it, with what changes it. */
export type GoalHandle = {
  goal?: Goal;
  /** Whether the first load answered (no goal yet is then "none", not "loading"). */
  loaded: boolean;
  error?: string;
  /** The goal an action answered with. */
  set: (goal: Goal) => void;
  setError: (error?: string) => void;
};

/**
 * The conversation's latest goal, loaded again at each `version` (a prompt ended or waits, or the record got a
 * goal checkpoint); nothing when `enabled` is false (the server has no goals plugin).
 */
export function useGoal(
  api: GoalApi,
  conversationId: string,
  version: number | string,
  enabled = true,
): GoalHandle {
  const [goal, setGoal] = useState<Goal>();
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: another conversation: forget this one's goal
  useEffect(() => {
    setGoal(undefined);
    setLoaded(false);
    setError(undefined);
  }, [conversationId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes when the goal may have: reload then
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.goal(conversationId).then(
      (next) => {
        if (!current) return;
        setGoal(next);
        setError(undefined);
        setLoaded(true);
      },
      (e: Error) => {
        if (!current) return;
        setError(e.message);
        setLoaded(true);
      },
    );
    return () => {
      current = false;
    };
  }, [api, conversationId, version, enabled]);
  const set = useCallback((next: Goal) => {
    setGoal(next);
    setError(undefined);
  }, []);
  return { goal, loaded, error, set, setError };
}
