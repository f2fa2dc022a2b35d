// Soak test: two server processes (createServer, in bench/soak-server.ts) on one PostgreSQL database, killed
// with SIGKILL and restarted at random moments while clients send prompts over HTTP and approve or reject
// what waits. At the end it checks the record: every prompt ended or waits, every call has exactly one
// result, no output is doubled, no call with side effects ran twice and none ran without its approval. It
// prints the figures (prompts, kills, time from a kill to the takeover of its prompts) and exits 1 on a
// violation. Run: `pnpm --filter @tessera/server soak` (SOAK_MS: how long the clients send, default 60000;
// SOAK_CLIENTS, default 8; SOAK_DATABASE_URL, default the machine's PostgreSQL; a schema of its own is
// created and dropped).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Prompt, PromptState, ToolOutput } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { CARDS, RUNS, SOAK_INPUTS, type SoakCard, type SoakRun } from './soak-plugin.ts';

const DURATION_MS = Number(process.env.SOAK_MS ?? 60_000);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const DATABASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TOKEN = 'soak-token-0123456789';
const SCHEMA = `soak_${Date.now().toString(36)}_${process.pid}`;
const SERVER = fileURLToPath(new URL('./soak-server.ts', import.meta.url));
/** A prompt still running this long after it was sent is stuck. */
const STUCK_MS = 60_000;

const violations: string[] = [];
const violation = (message: string) => {
  violations.push(message);
  if (violations.length <= 20) console.error(`  ✗ ${message}`);
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** One server process: started, killed with SIGKILL, started again. */
class ServerProcess {
  url: string | undefined;
  pid: number | undefined;
  startedAt = 0;
  #child: ChildProcess | undefined;

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
      env: {
        ...process.env,
        SOAK_DATABASE_URL: DATABASE_URL,
        SOAK_SCHEMA: SCHEMA,
        SOAK_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.#child = child;
    const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
      child.once('exit', (code, signal) =>
        reject(new Error(`a server exited while starting (${code ?? signal})`)),
      );
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    });
    this.url = ready.url;
    this.pid = ready.pid;
    this.startedAt = performance.now();
  }

  kill(): void {
    this.url = undefined;
    this.#child?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.url = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const servers = [new ServerProcess(), new ServerProcess()];
const stats = {
  sent: 0,
  approved: 0,
  rejected: 0,
  cancelled: 0,
  leftWaiting: 0,
  retried: 0,
  serverErrors: 0,
  kills: 0,
  restarts: 0,
  orphaned: 0,
  takenOverLive: 0,
  takenOverAtRestart: 0,
};
/** Time from a kill to the claim of each prompt it orphaned, in ms; and of those a live server claimed. */
const takeovers: number[] = [];
const liveTakeovers: number[] = [];
/** How long each cancel took to answer, in ms (a prompt whose process died must not wait for it). */
const cancels: number[] = [];
/** What the clients decided, by tool call id. */
const decided = new Map<string, 'approve' | 'reject'>();
const sentIds: string[] = [];

/** An API call to a live server, tried again (on either) while servers die under it. */
// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  for (;;) {
    const live = servers.filter((server) => server.url);
    if (live.length === 0) {
      await sleep(50);
      continue;
    }
    try {
      const response = await fetch(`${pick(live).url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const json = await response.json().catch(() => undefined);
      if (response.status >= 500) {
        stats.serverErrors++;
        await sleep(50);
        continue;
      }
      return { status: response.status, body: json };
    } catch {
      // Refused or cut off by a kill: the request is sent again (sends carry their id, decisions are
      // refused once made), maybe to the other server.
      stats.retried++;
      await sleep(50);
    }
  }
}

/**
 * Follows a prompt until it ends, deciding what waits for approval (after the deadline, it is left waiting);
 * one prompt in twenty is cancelled within its first 1.5 s.
 */
async function follow(promptId: string, deadline: number): Promise<void> {
  const sentAt = Date.now();
  let cancelAt = Math.random() < 0.05 ? sentAt + Math.random() * 1_500 : Number.POSITIVE_INFINITY;
  for (;;) {
    const { status, body: prompt } = await api('GET', `/api/prompts/${promptId}`);
    if (status !== 200) return violation(`prompt ${promptId} answered ${status} when read`);
    const state = (prompt as Prompt).state;
    if (state === 'completed' || state === 'failed' || state === 'cancelled') return;
    if (Date.now() >= cancelAt) {
      cancelAt = Number.POSITIVE_INFINITY;
      const asked = performance.now();
      const answer = await api('POST', `/api/prompts/${promptId}/cancel`);
      cancels.push(performance.now() - asked);
      // 409: it ended meanwhile (or a kill cut off a cancel that had landed).
      if (answer.status === 200) stats.cancelled++;
      else if (answer.status !== 409) violation(`cancelling ${promptId} answered ${answer.status}`);
      // It may have completed before the cancel reached it, but it must have stopped.
      if (answer.status === 200 && !['cancelled', 'completed', 'failed'].includes(answer.body?.state)) {
        violation(`prompt ${promptId} cancelled (200) but still ${answer.body?.state}`);
      }
      continue;
    }
    if (state === 'waiting_for_approval') {
      if (Date.now() >= deadline) {
        stats.leftWaiting++;
        return;
      }
      const pending = (prompt as Prompt).output.find(
        (o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending',
      );
      if (!pending) return violation(`prompt ${promptId} waits without a pending call`);
      const decision = decided.get(pending.id) ?? (Math.random() < 0.75 ? 'approve' : 'reject');
      decided.set(pending.id, decision);
      const answer = await api(
        'POST',
        `/api/tool-calls/${pending.id}/${decision}`,
        decision === 'reject' ? { reason: 'Not now.' } : {},
      );
      // 409: a decision sent before, cut off by a kill, had landed.
      if (answer.status === 202) stats[decision === 'approve' ? 'approved' : 'rejected']++;
      else if (answer.status !== 409) violation(`deciding ${pending.id} answered ${answer.status}`);
    } else if (Date.now() - sentAt > STUCK_MS) {
      return violation(`prompt ${promptId} still ${state} ${STUCK_MS / 1000} s after it was sent`);
    }
    await sleep(100);
  }
}

/** A user: conversations of a few prompts each, sent one after another, until the deadline. */
async function client(n: number, deadline: number): Promise<void> {
  let count = 0;
  while (Date.now() < deadline) {
    const created = await api('POST', '/api/conversations', {});
    const conversationId = created.body?.id as string;
    for (let k = 0; k < 4 && Date.now() < deadline; k++) {
      const id = `soak_${n}_${count++}`;
      const input = pick(Object.keys(SOAK_INPUTS));
      const sent = await api('POST', `/api/conversations/${conversationId}/prompts`, { input, id });
      if (sent.status !== 202) {
        violation(`sending ${id} answered ${sent.status} ${JSON.stringify(sent.body)}`);
        break;
      }
      // The server derives the prompt's id from the user and the client's id (see promptIdFor).
      const promptId = sent.body.prompt.id as string;
      sentIds.push(promptId);
      stats.sent++;
      await follow(promptId, deadline);
    }
  }
}

/** The running prompts whose runner is the process `pid`. */
async function runningOn(pid: number, among?: string[]): Promise<{ id: string }[]> {
  return store.driver.query<{ id: string }>(
    `SELECT id FROM "${SCHEMA}".prompts WHERE state = 'running' AND runner LIKE $1
      AND ($2::text[] IS NULL OR id = ANY ($2::text[]))`,
    [`%:${pid}:%`, among ?? null],
  );
}

/** Measures, for each prompt the killed process was running, how long until another process claimed it. */
async function watchTakeover(pid: number, killedAt: number): Promise<void> {
  const orphans = (await runningOn(pid)).map((row) => row.id);
  stats.orphaned += orphans.length;
  let waiting = new Set(orphans);
  while (waiting.size > 0) {
    if (performance.now() - killedAt > STUCK_MS) {
      for (const id of waiting)
        violation(`prompt ${id} not taken over ${STUCK_MS / 1000} s after its process was killed`);
      return;
    }
    await sleep(20);
    const still = new Set((await runningOn(pid, [...waiting])).map((row) => row.id));
    const at = performance.now();
    for (const id of waiting) {
      if (still.has(id)) continue;
      takeovers.push(at - killedAt);
      // By a server that was alive at the kill, or by one (re)started since (its start-up recovery).
      const [row] = await store.driver.query<{ runner: string | null }>(
        `SELECT runner FROM "${SCHEMA}".prompts WHERE id = $1`,
        [id],
      );
      const claimer = servers.find((server) => server.pid && row?.runner?.includes(`:${server.pid}:`));
      if (claimer && claimer.startedAt < killedAt) {
        stats.takenOverLive++;
        liveTakeovers.push(at - killedAt);
      } else {
        stats.takenOverAtRestart++;
      }
    }
    waiting = still;
  }
}

/**
 * Every 0.5-2 s kills a server: one of the two when both are up, the last one (both down) one time in five,
 * and starts it again 1-5 s later, until the deadline. The live server's periodic recovery usually takes a
 * killed one's prompts; after a total outage, the first server to start does at its start-up.
 */
async function chaos(deadline: number, watchers: Promise<void>[], restarts: Promise<void>[]): Promise<void> {
  for (;;) {
    await sleep(500 + Math.random() * 1_500);
    if (Date.now() >= deadline) return;
    const live = servers.filter((server) => server.url);
    if (live.length === 0 || (live.length === 1 && Math.random() > 0.2)) continue;
    const victim = pick(live);
    const pid = victim.pid!;
    victim.kill();
    const killedAt = performance.now();
    stats.kills++;
    watchers.push(watchTakeover(pid, killedAt));
    restarts.push(
      sleep(1_000 + Math.random() * 4_000)
        .then(() => victim.start())
        .then(() => {
          stats.restarts++;
        }),
    );
  }
}

/** Reads the whole record and checks what the soak promises. */
async function check(): Promise<
  Record<PromptState, number> & { calls: number; interrupted: number; reruns: number }
> {
  const states: PromptState[] = ['running', 'waiting_for_approval', 'completed', 'failed', 'cancelled'];
  const prompts = (
    await Promise.all(states.map((state) => store.prompts.listByState(state)))
  ).flat() as Prompt[];
  const byState = Object.fromEntries(states.map((s) => [s, prompts.filter((p) => p.state === s).length]));
  const calls = new Map<string, ToolOutput>();
  let interrupted = 0;
  const ids = new Set(prompts.map((p) => p.id));
  for (const id of sentIds)
    if (!ids.has(id)) violation(`prompt ${id} was sent (202) but is not in the store`);
  for (const prompt of prompts) {
    if (prompt.state === 'running') violation(`prompt ${prompt.id} is still running after the soak settled`);
    if (new Set(prompt.output.map((o) => o.id)).size !== prompt.output.length) {
      violation(`prompt ${prompt.id} has an output id twice`);
    }
    const tools = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    const pending = tools.filter((t) => t.result?.type === 'pending');
    for (const call of tools) {
      calls.set(call.id, call);
      const result = call.result?.type;
      if ((call.result as { error?: { code?: string } } | undefined)?.error?.code === 'interrupted')
        interrupted++;
      if (prompt.state === 'waiting_for_approval') {
        if (!result && call.startedAt)
          violation(`call ${call.id} of waiting prompt ${prompt.id} started and has no result`);
      } else if (result !== 'success' && result !== 'error') {
        violation(
          `call ${call.id} of ${prompt.state} prompt ${prompt.id} has no result (${result ?? 'none'})`,
        );
      }
      const cards = (prompt.output as readonly { type: string; toolCallId?: string }[]).filter(
        (o): o is SoakCard => o.type === 'x-soak.card' && o.toolCallId === call.id,
      );
      const indexes = cards.map((card) => card.index);
      if (new Set(indexes).size !== indexes.length) {
        violation(`call ${call.id} (${call.toolId}) shows card(s) twice: ${indexes.join(', ')}`);
      } else if (result === 'success' && indexes.length !== CARDS[call.toolId]) {
        violation(`call ${call.id} (${call.toolId}) succeeded with ${indexes.length} card(s)`);
      }
    }
    if (prompt.state === 'waiting_for_approval' && pending.length !== 1) {
      violation(`waiting prompt ${prompt.id} has ${pending.length} pending calls`);
    }
  }

  const runs = new Map<string, SoakRun[]>();
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await store.records.list<SoakRun>(RUNS, { limit: 500, cursor });
    for (const { value } of page.items)
      runs.set(value.toolCallId, [...(runs.get(value.toolCallId) ?? []), value]);
    cursor = page.nextCursor;
  }
  let reruns = 0;
  for (const [toolCallId, ran] of runs) {
    const call = calls.get(toolCallId);
    if (!call) {
      violation(`a run of ${ran[0]?.toolId} for call ${toolCallId}, which no prompt records`);
      continue;
    }
    if (call.toolId === 'soak.forecast') reruns += ran.length - 1;
    else if (ran.length > 1) violation(`call ${toolCallId} (${call.toolId}) ran ${ran.length} times`);
    if (call.toolId === 'soak.transfer') {
      if (call.approval?.decision !== 'approved') {
        violation(`call ${toolCallId} ran without approval (${call.approval?.decision ?? 'undecided'})`);
      }
      if (decided.get(toolCallId) === 'reject')
        violation(`call ${toolCallId} ran though the user rejected it`);
    }
  }
  return { ...(byState as Record<PromptState, number>), calls: calls.size, interrupted, reruns };
}

// ---- the run ------------------------------------------------------------------------------------------

const store = await createPostgresStore({ connectionString: DATABASE_URL, schema: SCHEMA });
const started = performance.now();
try {
  await Promise.all(servers.map((server) => server.start()));
  console.log(
    `soak: ${DURATION_MS / 1000} s, ${servers.length} servers, ${CLIENTS} clients, schema ${SCHEMA} of ${DATABASE_URL}`,
  );
  const deadline = Date.now() + DURATION_MS;
  const watchers: Promise<void>[] = [];
  const restarts: Promise<void>[] = [];
  await Promise.all([
    chaos(deadline, watchers, restarts),
    ...Array.from({ length: CLIENTS }, (_, n) => client(n, deadline)),
  ]);
  // Settle: every server up again, every orphan taken over, nothing left running.
  await Promise.all(restarts);
  await Promise.all(servers.filter((server) => !server.url).map((server) => server.start()));
  await Promise.all(watchers);
  const settleBy = performance.now() + STUCK_MS;
  while ((await store.prompts.listByState('running')).length > 0 && performance.now() < settleBy)
    await sleep(100);
  await Promise.all(servers.map((server) => server.stop()));

  const found = await check();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  takeovers.sort((a, b) => a - b);
  cancels.sort((a, b) => a - b);
  liveTakeovers.sort((a, b) => a - b);
  const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
  console.log(`
  ran ${seconds} s; prompts sent: ${stats.sent} (${found.completed} completed, ${found.failed} failed, ${found.cancelled} cancelled, ${found.waiting_for_approval} waiting for approval, ${found.running} running)
  tool calls: ${found.calls} (${found.interrupted} interrupted by a kill); decisions: ${stats.approved} approved, ${stats.rejected} rejected; ${stats.leftWaiting} left waiting at the end
  cancels: ${cancels.length} (${stats.cancelled} cancelled, the others had ended), answered in p50 ${ms(quantile(cancels, 0.5))}, max ${ms(cancels.at(-1) ?? Number.NaN)}
  kills (SIGKILL): ${stats.kills}, restarts: ${stats.restarts}; requests sent again after a kill: ${stats.retried}, 5xx answers: ${stats.serverErrors}
  prompts orphaned by a kill: ${stats.orphaned}; taken over by a live server: ${stats.takenOverLive}, at a restart: ${stats.takenOverAtRestart}
  time from kill to takeover: p50 ${ms(quantile(takeovers, 0.5))}, p99 ${ms(quantile(takeovers, 0.99))}, max ${ms(takeovers.at(-1) ?? Number.NaN)}; by a live server alone: p50 ${ms(quantile(liveTakeovers, 0.5))}, p99 ${ms(quantile(liveTakeovers, 0.99))}
  read-only calls run again after a kill: ${found.reruns} (what their first run emitted replaced)
  checks: every prompt ends or waits, every call has exactly one result, no output doubled, no side effect twice, no approval bypassed: ${violations.length === 0 ? 'all passed' : `${violations.length} violation(s)`}
`);
} finally {
  for (const server of servers) server.kill();
  if (!process.env.SOAK_KEEP) await store.driver.query(`DROP SCHEMA "${SCHEMA}" CASCADE`).catch(() => {});
  await store.close();
}
process.exit(violations.length === 0 ? 0 : 1);
