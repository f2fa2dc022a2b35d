import type { ModelClass } from './api.ts';

const KEY = 'tessera.modelClass';

/** The model class the user chose in Settings for their messages (`high`: more capable, slower). */
export function readModelClass(): ModelClass {
  return localStorage.getItem(KEY) === 'high' ? 'high' : 'normal';
}

export function saveModelClass(value: ModelClass): void {
  if (value === 'normal') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, value);
}
