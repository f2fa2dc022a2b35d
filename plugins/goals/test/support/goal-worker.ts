// A process (run by `node` itself, forked by test/two-processes.test.ts) that creates a goal and drives it
// until its turn 2's work starts, tells its parent process then, and hangs in that tool until it is killed.
import { createPlatform } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { goalService, goalsPlugin } from '../../src/index.ts';
import { appTools, statelessModel } from '../helpers.ts';

const store = await createPostgresStore({
  connectionString: process.env.DATABASE_URL!,
  schema: process.env.TESSERA_SCHEMA!,
  relayHeartbeatMs: 100,
  relayExpiryMs: 400,
});
const app = appTools();
app.checks.pass = true;
app.checks.onStep = (step) =>
  step === 'turn 2'
    ? new Promise(() => {
        process.send?.({ hanging: step });
      })
    : undefined;
const platform = createPlatform({
  plugins: [goalsPlugin({ sweepEveryMs: false }), app.plugin],
  store,
  model: statelessModel(3),
  recoverEveryMs: 100,
});
await platform.open();
const userId = process.env.TESSERA_USER!;
const conversation = await platform.conversations.create({ userId });
const goal = await goalService(platform.services).create(conversation.id, userId, {
  objective: 'Ship the release',
  criteria: [{ description: 'Tests pass', verify: { kind: 'check', toolId: 'check.tests' } }],
});
process.send?.({ conversationId: conversation.id, goalId: goal.id });
setInterval(() => {}, 1 << 30);
