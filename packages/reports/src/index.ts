export { type ContextTokens, contextTokens, estimatorFor } from './context-tokens.ts';
export { promptReport, type ReportOptions } from './prompt-report.ts';
export {
  CompactionReport,
  ModelCallReport,
  type PromptReport,
  PromptReportSchema,
  PromptReportTotals,
  ReportContext,
  SubAgentReport,
  SubAgentsReport,
  ToolCallOutcome,
  ToolCallReport,
  UsageTotals,
} from './report-schema.ts';
