import { readFile } from 'node:fs/promises';
import type { Platform } from '@tessera/core';
import { BLUEPRINTS_NAMESPACE, blueprintService, NewBlueprint, SHARED } from '@tessera/plugin-blueprints';
import { z } from 'zod';

const EXAMPLE_BLUEPRINTS = new URL('../examples/blueprints.json', import.meta.url);

/** A few shared blueprints so the catalogue is not empty on a fresh install (added once). */
export async function seedBlueprints(platform: Platform): Promise<void> {
  const { items } = await platform.store.records.list(BLUEPRINTS_NAMESPACE, {
    prefix: `${SHARED}:`,
    limit: 1,
  });
  if (items.length > 0) return;
  const examples = z.array(NewBlueprint).parse(JSON.parse(await readFile(EXAMPLE_BLUEPRINTS, 'utf8')));
  for (const example of examples) await blueprintService(platform.services).save(SHARED, example);
}
