export { Blueprint, type BlueprintMatch, NewBlueprint, SHARED } from './blueprint.ts';
export {
  BLUEPRINTS_NAMESPACE,
  BlueprintService,
  type BlueprintServiceOptions,
  BlueprintServiceToken,
  blueprintService,
  DEFAULT_MAX_BLUEPRINTS_PER_USER,
  type SearchOptions,
} from './blueprint-service.ts';
export { MAX_LOADED_INDEXES } from './owner-indexes.ts';
export { type BlueprintsOptions, BlueprintsState, blueprintsPlugin } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-blueprints", "options": {...} }`. */
export { blueprintsPluginFactory as default } from './plugin-factory.ts';
export { INDEXED_STEPS_CHARS, SEARCH_LIMITS, type SearchLimits, searchTerms } from './search-terms.ts';
