/** The trigger that started a prompt, from the metadata the scheduler gives it. */
export const triggerIdOf = (metadata: Record<string, unknown> | undefined): string | undefined =>
  typeof metadata?.trigger === 'string' ? metadata.trigger : undefined;
