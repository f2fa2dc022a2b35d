// A process (run by `node` itself, forked by test/sigkill.test.ts) that starts a parent whose agent's child
// waits for approval, tells its parent process once the parent prompt is stored waiting, then idles until it
// is killed.
import { createPostgresStore } from '@tessera/store-postgres';
import { callTool } from '@tessera/testing';
import { childPromptId } from '../../src/index.ts';
import { approvedWork, callOf, processOn, userId, workerAgent } from '../durable.ts';

const store = await createPostgresStore({
  connectionString: process.env.DATABASE_URL!,
  schema: process.env.TESSERA_SCHEMA!,
});
const work = approvedWork();
const { platform } = await processOn(store, {
  agents: [workerAgent],
  tools: [work.tool],
  script: {
    parent: [callTool('agent.worker', { task: 'Change it.' })],
    worker: [callTool('work.do', { what: 'it' })],
  },
});
const conversation = await platform.conversations.create({ userId });
const parent = await platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
process.send?.({
  parentId: parent.id,
  state: parent.state,
  childId: childPromptId(callOf(parent, 'agent.worker').id),
});
setInterval(() => {}, 1 << 30);
