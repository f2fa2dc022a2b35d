import type { DependencyContainer } from 'tsyringe';
import { HookError } from '../errors.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';
import type { HookContext, PermissionPolicy, PluginGuardrails, PluginHooks } from '../plugins/hooks.ts';
import type { ConversationStates } from './plugin-state.ts';
import type { PromptRecord } from './prompt-record.ts';

type Hooks = Required<PluginHooks<unknown>>;
type Guardrails = Required<PluginGuardrails<unknown>>;

/** One plugin's function for one hook point. */
export type HookEntry<F> = { plugin: AnyPlugin; name: string; fn: F };

/** The hook points of `PluginHooks`, each a list of the same name here. */
const HOOK_POINTS = [
  'beforeFirstModelCall',
  'historyView',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
  'betweenRounds',
] as const satisfies readonly (keyof Hooks)[];

/**
 * Every plugin's hooks, guardrails and permission policies, grouped by hook point in plugin order. Built
 * once per platform: with no plugin using a hook point its list is empty, and the loop pays one length check.
 */
export class HookTable {
  readonly beforeFirstModelCall: HookEntry<Hooks['beforeFirstModelCall']>[] = [];
  readonly historyView: HookEntry<Hooks['historyView']>[] = [];
  readonly beforeModelCall: HookEntry<Hooks['beforeModelCall']>[] = [];
  readonly afterModelCall: HookEntry<Hooks['afterModelCall']>[] = [];
  readonly beforeToolCall: HookEntry<Hooks['beforeToolCall']>[] = [];
  readonly afterToolCall: HookEntry<Hooks['afterToolCall']>[] = [];
  readonly betweenRounds: HookEntry<Hooks['betweenRounds']>[] = [];
  readonly inputGuardrails: HookEntry<Guardrails['input']>[] = [];
  readonly outputGuardrails: HookEntry<Guardrails['output']>[] = [];
  readonly permissions: HookEntry<PermissionPolicy<unknown>>[] = [];

  constructor(plugins: readonly AnyPlugin[]) {
    for (const plugin of plugins) {
      const { hooks, guardrails, permissions } = plugin;
      for (const name of HOOK_POINTS) {
        const fn = hooks?.[name];
        if (fn) (this[name] as HookEntry<typeof fn>[]).push({ plugin, name, fn });
      }
      if (guardrails?.input)
        this.inputGuardrails.push({ plugin, name: 'input guardrail', fn: guardrails.input });
      if (guardrails?.output)
        this.outputGuardrails.push({ plugin, name: 'output guardrail', fn: guardrails.output });
      if (permissions) this.permissions.push({ plugin, name: 'permissions', fn: permissions });
    }
  }
}

/** What of the runtime a hook's context needs (the `Runtime` passes as it is). */
type ScopeRuntime = { readonly services: DependencyContainer };

/**
 * Builds the context a plugin's hook receives (its own state in it), for one prompt's run. An object, not an
 * arrow function over the loop: it is made with every loop, hooks or not, and with such a closure here V8
 * carried each run's objects through minor GCs into the old generation (bench/cpu-per-round.ts with
 * --trace-gc-nvp: ~120 MB promoted in 8,000 runs instead of ~18 MB, minor GC pauses several times longer).
 */
export class HookScope {
  readonly #runtime: ScopeRuntime;
  readonly #record: PromptRecord;
  readonly #states: ConversationStates;
  /** The signal of the run in progress (set by the loop before any hook runs). */
  signal: AbortSignal | undefined;

  constructor(runtime: ScopeRuntime, record: PromptRecord, states: ConversationStates) {
    this.#runtime = runtime;
    this.#record = record;
    this.#states = states;
  }

  contextFor(plugin: AnyPlugin): HookContext<unknown> {
    const prompt = this.#record.prompt;
    return {
      userId: prompt.userId,
      conversationId: prompt.conversationId,
      prompt,
      state: this.#states.for(plugin),
      services: this.#runtime.services,
      signal: this.signal ?? AbortSignal.abort(),
    };
  }

  /** Calls one plugin's hook (see `callHook`) with its context and `extra`, under the run's signal. */
  call<X, R>(entry: HookEntry<(context: HookContext<unknown> & X) => R>, extra: X): Promise<Awaited<R>> {
    const context = { ...this.contextFor(entry.plugin), ...extra };
    return callHook(entry, context, context.signal);
  }
}

/**
 * Calls one hook. What it throws becomes a `HookError` naming the plugin and the hook; a hook still waiting
 * when the run is aborted is abandoned (the abort's reason is thrown), so no hook can hold a prompt forever.
 */
async function callHook<C, R>(
  entry: HookEntry<(context: C) => R>,
  context: C,
  signal: AbortSignal,
): Promise<Awaited<R>> {
  signal.throwIfAborted();
  let value: R;
  try {
    value = entry.fn(context);
  } catch (error) {
    throw new HookError(entry.plugin.id, entry.name, error);
  }
  // A thenable of any kind (another realm's promise too) is awaited; anything else is the answer.
  if (typeof (value as { then?: unknown } | null)?.then !== 'function') return value as Awaited<R>;
  return new Promise<Awaited<R>>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    (value as PromiseLike<Awaited<R>>).then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : new HookError(entry.plugin.id, entry.name, error));
      },
    );
  });
}
