// A server in its own process, for the crash test: its model takes a minute to answer, so the test can kill
// it with SIGKILL while a prompt is in flight.
import { reply, ScriptedModel } from '@tessera/testing';
import { createServer } from '../../src/index.ts';

const [dataDir, token] = process.argv.slice(2);
const server = await createServer({
  dataDir,
  auth: { tokens: { [token!]: 'alice' } },
  model: new ScriptedModel([reply('too late', { delayMs: 60_000 })]),
});
const { url } = await server.listen({ port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);
