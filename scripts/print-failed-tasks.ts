// After a failed `pnpm test`: each failed turbo task's own log again, at the end of the output. Turbo streams
// the tasks' output interleaved, so a task that failed early is buried under the hours of output of those
// still running, and a CI log cut to its tail then shows only that something failed. The run's summary
// (`turbo run --summarize`) names each task's exit code and log file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

type Summary = { tasks: { taskId: string; logFile: string; execution?: { exitCode?: number } }[] };

const root = join(import.meta.dirname, '..');
const runs = join(root, '.turbo', 'runs');
const newest = readdirSync(runs)
  .filter((name) => name.endsWith('.json'))
  .map((name) => join(runs, name))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) {
  console.error(`No turbo run summary in ${runs}`);
  process.exit(0);
}

const summary: Summary = JSON.parse(readFileSync(newest, 'utf8'));
const failed = summary.tasks.filter((task) => (task.execution?.exitCode ?? 0) !== 0);
for (const task of failed) {
  const lines = stripVTControlCharacters(readFileSync(join(root, task.logFile), 'utf8')).split('\n');
  // Vitest ends with the failures, each with its name, assertion and stack; anything else shows its tail.
  const from = lines.findIndex((line) => /⎯{3,} (Failed Tests|Unhandled Errors?|Failed Suites)/.test(line));
  const shown = (from >= 0 ? lines.slice(from) : lines.slice(-150)).slice(0, 400);
  console.error(`\n━━━ ${task.taskId} failed (exit ${task.execution?.exitCode}); ${task.logFile}:\n`);
  console.error(shown.join('\n'));
}
console.error(`\n${failed.length} task(s) failed: ${failed.map((task) => task.taskId).join(', ')}`);
