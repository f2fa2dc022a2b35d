export {
  type CompactedHistory,
  compactedHistory,
  latestSummary,
  summaryMessage,
} from './compacted-history.ts';
export {
  CompactionOptions,
  compactionThreshold,
  DEFAULT_CONTEXT_WINDOW,
  SUMMARY_INSTRUCTIONS,
} from './compaction-options.ts';
export { type CompactionOutput, compactionOutput } from './compaction-output.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-compaction", "options": {...} }`. */
export { compactionPlugin, compactionPlugin as default } from './plugin.ts';
