// The part of `pnpm check:packages` that does what a new team does, from an empty folder outside the
// repository with only the packed tarballs, on the oldest Node the packages support (their `engines`, fetched
// as the registry's node-<platform>-<arch> package): `npm create tessera` (create-tessera's tarball) makes an
// app with a plugin, `npm install` installs it (one @tessera/core in the tree), `npm start` serves it (the
// plugin in /api/me, the web UI at /, the tool runner runs its tool), `npm test` and `npm run typecheck` pass;
// then an app without a plugin installs and passes its test. Prints the time from the empty folder to the
// served plugin.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');

type Step = (command: string, args: string[], cwd: string) => void;

/** The Node `engines` of the server names (22.12 of ">=22.12"), unpacked from the registry into `work`. */
function oldestNode(work: string, run: Step): string {
  const engines: string = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')).engines
    .node;
  const version = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(engines)?.[1];
  if (!version) throw new Error(`The server's engines.node is not ">=x.y": ${engines}`);
  const full = version.split('.').length === 2 ? `${version}.0` : version;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const folder = join(work, 'node-oldest');
  mkdirSync(folder);
  run('npm', ['pack', `node-${platform}-${process.arch}@${full}`, '--silent'], folder);
  run('tar', ['xzf', `node-${platform}-${process.arch}-${full}.tgz`], folder);
  return join(folder, 'package', 'bin');
}

/**
 * The environment of a shell outside the repository: that Node first on the PATH, and nothing of pnpm's or
 * the workspace's (its node_modules/.bin, NODE_PATH, npm_* settings that npm would read as its own).
 */
function outsideEnvironment(nodeBin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|node_path$|node_options$|init_cwd$|turbo_)/i.test(key)) env[key] = value;
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => entry && !entry.startsWith(root));
  env.PATH = [nodeBin, ...path].join(delimiter);
  return env;
}

/** `npm start` until it prints its link: the URL and the local user's token. */
async function started(server: ChildProcess): Promise<{ url: string; token: string; output: () => string }> {
  let output = '';
  for (const stream of [server.stdout!, server.stderr!]) stream.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const link = /Tessera is running: (http:\/\/\S+?)\/#token=(\S+)/.exec(output);
    if (link) return { url: link[1]!, token: link[2]!, output: () => output };
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not serve the app:\n${output}`);
}

/**
 * What the web UI's tool runner does: the plugin's tool among a new conversation's tools, run by hand through
 * the approval and recording path (a prompt whose first call is the user's), its result recorded.
 */
async function runToolRunner(url: string, token: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const response = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const conversation = await call('POST', '/api/conversations', {});
  const { items } = await call('GET', `/api/conversations/${conversation.id}/tools`);
  if (!items.some((tool: { id: string }) => tool.id === 'tickets.add'))
    throw new Error(`The tool runner does not offer tickets.add: ${JSON.stringify(items)}`);
  const input = { title: 'From the tool runner' };
  let { prompt } = await call('POST', `/api/conversations/${conversation.id}/tool-runs`, {
    toolId: 'tickets.add',
    input,
  });
  for (let i = 0; i < 100 && prompt.state === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    prompt = await call('GET', `/api/prompts/${prompt.id}`);
  }
  const result = prompt.output[0]?.result;
  if (prompt.state !== 'completed' || result?.type !== 'success')
    throw new Error(`The tool runner's run of tickets.add did not succeed: ${JSON.stringify(prompt)}`);
  console.log(`The tool runner ran tickets.add ${JSON.stringify(input)}: ${JSON.stringify(result.output)}`);
}

async function serveAndCheck(app: string, env: NodeJS.ProcessEnv, since: number): Promise<number> {
  console.log(`\n$ npm start (in ${app})`);
  // Its own process group (npm, sh, tessera-server and the Node it may start), stopped as a whole.
  const server = spawn('npm', ['start'], { cwd: app, env: { ...env, PORT: '0' }, detached: true });
  try {
    const { url, token, output } = await started(server);
    const me = (await (
      await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      plugins?: string[];
    };
    const page = await (await fetch(url)).text();
    const served = Date.now() - since;
    if (!me.plugins?.includes('tickets') || !page.includes('<div id="root">')) {
      throw new Error(
        `The app is not served: /api/me ${JSON.stringify(me)}, / ${page.slice(0, 200)}\n${output()}`,
      );
    }
    console.log(`${url}: /api/me lists the plugins ${me.plugins.join(', ')}; / is the web UI`);
    await runToolRunner(url, token);
    return served;
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
  }
}

/** `tarballs`: the folder of the packed packages; `creator`: create-tessera's tarball among them. */
export async function checkCreatedApp({
  work,
  tarballs,
  creator,
}: {
  work: string;
  tarballs: string;
  creator: string;
}): Promise<void> {
  const times: [string, number][] = [];
  const timed = (what: string, step: () => void) => {
    const start = Date.now();
    step();
    times.push([what, Date.now() - start]);
  };
  const nodeBin = oldestNode(work, (command, args, cwd) =>
    execFileSync(command, args, { cwd, stdio: 'ignore' }),
  );
  const env = outsideEnvironment(nodeBin);
  const run: Step = (command, args, cwd) => {
    console.log(`\n$ ${[command, ...args].join(' ')}   (in ${cwd})`);
    execFileSync(command, args, { cwd, env, stdio: 'inherit' });
  };
  run('node', ['--version'], work);
  const empty = join(work, 'outside');
  mkdirSync(empty);
  const create = (args: string[]) =>
    run('npm', ['exec', '--yes', `--package=${creator}`, '--', 'create-tessera', ...args], empty);
  const install = ['install', '--no-audit', '--no-fund', '--loglevel=error'];

  const since = Date.now();
  timed('npm create tessera', () => create(['my-app', '--plugin', 'tickets', '--packages-from', tarballs]));
  const app = join(empty, 'my-app');
  timed('npm install', () => run('npm', install, app));
  const served = await serveAndCheck(app, env, since);
  times.push([
    'npm start (the plugin built, the server up)',
    served - times.reduce((sum, [, ms]) => sum + ms, 0),
  ]);

  const cores: { location: string }[] = JSON.parse(
    execFileSync('npm', ['query', '[name="@tessera/core"]'], { cwd: app, env, encoding: 'utf8' }),
  );
  if (cores.length !== 1)
    throw new Error(`The app has ${cores.length} copies of @tessera/core: ${cores.map((c) => c.location)}`);
  run('npm', ['ls', '@tessera/core'], app); // exits 1 on a missing or invalid (peer) dependency
  timed('npm test', () => run('npm', ['test'], app));
  timed('npm run typecheck', () => run('npm', ['run', 'typecheck'], app));

  create(['solo', '--packages-from', tarballs]);
  timed('an app without a plugin: npm install && npm test', () => {
    run('npm', [...install, '--prefer-offline'], join(empty, 'solo'));
    run('npm', ['test'], join(empty, 'solo'));
  });

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\nOn Node ${execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim()}, from an empty folder:`,
  );
  for (const [what, ms] of times) console.log(`  ${what}: ${s(ms)}`);
  console.log(`From the empty folder to the plugin served over HTTP: ${s(served)}.`);
}
