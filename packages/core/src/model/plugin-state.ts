/** Read/write access to one plugin's state for one conversation, validated by the plugin's schema. */
export interface PluginState<T> {
  get(): T;
  set(value: T): Promise<void>;
  update(change: (current: T) => T): Promise<void>;
}
