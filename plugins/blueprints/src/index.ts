export { Blueprint, type BlueprintMatch, NewBlueprint, SHARED } from './blueprint.ts';
export {
  BLUEPRINTS_NAMESPACE,
  BlueprintService,
  BlueprintServiceToken,
  blueprintService,
  type SearchOptions,
} from './blueprint-service.ts';
export { type BlueprintsOptions, BlueprintsState, blueprintsPlugin } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-blueprints", "options": {...} }`. */
export { blueprintsPluginFactory as default } from './plugin-factory.ts';
export { SEARCH_LIMITS, type SearchLimits, searchTerms } from './search-terms.ts';
