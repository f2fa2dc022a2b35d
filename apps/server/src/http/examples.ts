/**
 * Example bodies for the API reference: what a client sends and gets, as the demo model's answers record
 * them. Redocly checks each against its schema (test/openapi.test.ts), so they cannot drift from the API.
 */

const conversationId = 'conv_IxS5ZwE2g8Al0bN2';
const promptId = 'prm_rdWWhAF2Yn4nXxVq';
const toolCallId = 'call_9Fa9BeimrYIal8Hi';

export const conversationExample = {
  id: conversationId,
  userId: 'ada',
  title: 'Weather in Rome',
  promptIds: [promptId],
  pluginState: {},
  createdAt: '2026-11-27T05:49:27.285Z',
  updatedAt: '2026-11-27T05:49:28.280Z',
};

/** A fork of `conversationExample` at its second prompt, sharing its first. */
export const forkExample = {
  ...conversationExample,
  id: 'conv_Fk3bQ9xLm2Rt7Vw1',
  promptIds: [promptId],
  forkOf: { conversationId, promptId: 'prm_Q2nV8cLx0TfRk4Jd', rootId: conversationId },
  createdAt: '2026-11-27T06:02:11.007Z',
  updatedAt: '2026-11-27T06:02:11.007Z',
};

const usage = {
  inputTokens: 105,
  outputTokens: 40,
  cachedInputTokens: 0,
  reasoningTokens: 0,
  totalTokens: 145,
  modelCalls: 2,
};

/** A prompt that called a tool and answered: the `output` a client renders, in order. */
export const promptExample = {
  id: promptId,
  conversationId,
  userId: 'ada',
  model: 'normal',
  visible: true,
  state: 'completed',
  input: 'weather in Rome',
  output: [
    {
      id: 'call_epfQjm00ROYYVi1r',
      type: 'tool',
      toolId: 'demo.weather',
      callId: 'demo_mwykab33_182xvq',
      input: { city: 'Rome' },
      result: { type: 'success', output: { city: 'Rome', now: 15, high: 18, low: 9 } },
      responseId: 'rsp_2wfeZdq5ke8Bp-ip',
      createdAt: '2026-11-27T05:49:28.115Z',
      startedAt: '2026-11-27T05:49:28.116Z',
      endedAt: '2026-11-27T05:49:28.260Z',
    },
    {
      id: 'out__PsgyIcbItpKv8m0',
      type: 'text',
      text: 'It is 15 °C in Rome now, between 9 °C and 18 °C today.',
      responseId: 'rsp_na9VNIoPscPmu2Jv',
      createdAt: '2026-11-27T05:49:28.273Z',
    },
  ],
  usage,
  createdAt: '2026-11-27T05:49:27.673Z',
  updatedAt: '2026-11-27T05:49:28.280Z',
};

/** The answer to a send: the prompt, just started. */
export const acceptedExample = {
  prompt: {
    ...promptExample,
    state: 'running',
    output: [],
    usage: { ...usage, inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
    updatedAt: promptExample.createdAt,
  },
};

export const pendingApprovalExample = {
  toolCallId,
  promptId,
  conversationId,
  toolId: 'demo.transfer',
  input: { amount: 500, to: 'Ada' },
  reason: 'Transfers over $100 need your approval: $500 to Ada.',
  createdAt: '2026-11-27T05:49:29.998Z',
  path: [
    {
      conversationId: 'conv_Tr1pPl4nn1ngQ8sZ',
      promptId: 'prm_Tr1pPl4nn1ngQ8sZ',
      toolCallId: 'call_Ag3ntB00k3rCa11',
      toolId: 'agent.booker',
      title: 'Trip planning',
    },
    {
      conversationId,
      promptId,
      toolCallId,
      toolId: 'demo.transfer',
      agent: 'booker',
      title: 'booker: Pay the deposit for the Rome flat',
    },
  ],
};

/** The booker's caller, in the same tree: its call is suspended, waiting on the booker's prompt. */
export const suspendedApprovalExample = {
  toolCallId: 'call_Ag3ntB00k3rCa11',
  promptId: 'prm_Tr1pPl4nn1ngQ8sZ',
  conversationId: 'conv_Tr1pPl4nn1ngQ8sZ',
  toolId: 'agent.booker',
  input: { task: 'Pay the deposit for the Rome flat' },
  reason:
    "Agent 'booker' waits for your decision in its conversation: demo.transfer: Transfers over $100 need your approval: $500 to Ada.",
  createdAt: '2026-11-27T05:49:21.310Z',
  startedAt: '2026-11-27T05:49:21.402Z',
  waitsOn: { conversationId, promptId },
  path: [
    {
      conversationId: 'conv_Tr1pPl4nn1ngQ8sZ',
      promptId: 'prm_Tr1pPl4nn1ngQ8sZ',
      toolCallId: 'call_Ag3ntB00k3rCa11',
      toolId: 'agent.booker',
      title: 'Trip planning',
    },
  ],
};

export const toolCallExample = {
  toolCallId,
  promptId,
  toolId: 'demo.transfer',
  input: { amount: 500, to: 'Ada' },
  result: { type: 'pending', reason: 'Transfers over $100 need your approval: $500 to Ada.' },
  inputSchema: {
    type: 'object',
    properties: { amount: { type: 'number', exclusiveMinimum: 0 }, to: { type: 'string', minLength: 1 } },
    required: ['amount', 'to'],
  },
};

export const queuedMessageExample = {
  id: 'msg_Zi_xB83cUmQSwe2B',
  conversationId,
  userId: 'ada',
  mode: 'queue',
  input: 'then tell Ada',
  model: 'normal',
  createdAt: '2026-11-27T05:49:31.293Z',
};

export const pendingPauseExample = {
  pauseId: 'out_hNdeOHwgfchnG172',
  promptId,
  conversationId,
  source: 'budget',
  budget: { name: 'maxRounds', limit: 25, used: 25 },
  reason: 'The prompt reached its maxRounds budget (25).',
  createdAt: '2026-11-27T05:52:10.120Z',
  path: [{ conversationId, promptId, title: 'Weather in Rome' }],
};

export const reportExample = {
  promptId,
  state: 'completed',
  startedAt: '2026-11-27T05:49:27.673Z',
  endedAt: '2026-11-27T05:49:28.280Z',
  totalMs: 607,
  stop: 'completed',
  modelCalls: [
    {
      responseId: 'rsp_2wfeZdq5ke8Bp-ip',
      model: 'gpt-5-mini',
      startedAt: '2026-11-27T05:49:27.990Z',
      endedAt: '2026-11-27T05:49:28.116Z',
      latencyMs: 126,
      timeToFirstTokenMs: 125,
      inputTokens: 16,
      outputTokens: 20,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      finishReason: 'tool_calls',
      toolCalls: 1,
    },
  ],
  toolCalls: [
    {
      id: 'call_epfQjm00ROYYVi1r',
      callId: 'demo_mwykab33_182xvq',
      toolId: 'demo.weather',
      responseId: 'rsp_2wfeZdq5ke8Bp-ip',
      startedAt: '2026-11-27T05:49:28.116Z',
      endedAt: '2026-11-27T05:49:28.260Z',
      latencyMs: 144,
      resultBytes: 54,
      outcome: 'success',
    },
  ],
  totals: {
    modelCalls: 1,
    toolCalls: 1,
    failedToolCalls: 0,
    inputTokens: 16,
    outputTokens: 20,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    modelMs: 126,
    toolMs: 144,
  },
  context: { tokens: 109, reported: 109, estimated: 0, budget: 100000 },
};

export const offeredToolExample = {
  id: 'demo.transfer',
  description: 'Transfer money (pretend), to show approval that depends on the input.',
  plugin: 'demo',
  inputSchema: toolCallExample.inputSchema,
  approval: 'depends',
  readOnly: false,
};

export const skillExample = {
  name: 'meeting-notes',
  description: 'Turn a meeting transcript or rough notes into clear minutes with decisions and action items.',
  kind: 'folder',
  active: true,
  resources: ['references/template.md'],
};

export const blueprintExample = {
  id: 'bp_X8TMtYPczxLXiMk6',
  owner: 'shared',
  title: 'Handle a customer refund',
  summary: 'Check the order, issue the refund and tell the customer.',
  steps:
    '1. Find the order and check it is eligible.\n2. Issue the refund in the payment tool.\n3. Email the customer with the amount and the delay.',
  tags: ['support', 'billing'],
  usageCount: 3,
  createdAt: '2026-11-27T05:49:26.610Z',
  updatedAt: '2026-11-27T05:49:26.610Z',
};

export const triggerExample = {
  trigger: {
    id: 'trg_Qw2c8mYx1LrT0aZp',
    userId: 'ada',
    conversationId,
    name: 'Sales report',
    instruction: 'Make the weekly sales report.',
    schedule: { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Rome' },
    missedFires: 'skip',
    status: 'active',
    nextFireAt: '2026-11-30T08:00:00.000Z',
    runCount: 0,
    runs: [],
    createdAt: '2026-11-27T05:55:00.000Z',
    updatedAt: '2026-11-27T05:55:00.000Z',
  },
  description: 'Every Monday at 09:00 (Europe/Rome)',
};

/** A goal two prompts in: its check passed, its human criterion waits for a person. */
export const goalExample = {
  id: 'gol_Hq7Lm2Vx9Pz4Rt1K',
  conversationId,
  userId: 'ada',
  objective: 'Get the test suite of the billing service green.',
  criteria: [
    {
      id: 'c1',
      description: 'Every test of the billing service passes.',
      verify: { kind: 'check', toolId: 'tests.run' },
      evidence: {
        at: '2026-11-27T06:20:14.512Z',
        by: 'check',
        summary: '128 passed, 0 failed',
        promptId,
        toolCallId,
      },
      lastCheck: { at: '2026-11-27T06:20:14.512Z', passed: true, summary: '128 passed, 0 failed' },
    },
    { id: 'c2', description: 'Ada has read the fix and agrees with it.', verify: { kind: 'human' } },
  ],
  budgets: { modelCalls: 40, prompts: 10 },
  used: { modelCalls: 12, totalTokens: 48_210, cost: 0.19, prompts: 2, wallMs: 95_400 },
  stallLimit: 3,
  stalls: 0,
  state: 'active',
  plan: '1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.',
  progress: [
    { at: '2026-11-27T06:12:02.101Z', promptId, kind: 'plan', text: 'Run the tests, fix what fails.' },
    { at: '2026-11-27T06:20:14.512Z', promptId, kind: 'evidence', text: 'c1: 128 passed, 0 failed' },
  ],
  turn: 2,
  version: 7,
  createdAt: '2026-11-27T06:12:00.000Z',
  updatedAt: '2026-11-27T06:20:14.512Z',
};

/** `goalExample` as it is created: nothing used, no evidence, its first prompt starting. */
export const newGoalExample = {
  id: goalExample.id,
  conversationId,
  userId: 'ada',
  objective: goalExample.objective,
  criteria: goalExample.criteria.map(({ id, description, verify }) => ({ id, description, verify })),
  budgets: goalExample.budgets,
  used: { modelCalls: 0, totalTokens: 0, cost: 0, prompts: 0, wallMs: 0 },
  stallLimit: 3,
  stalls: 0,
  state: 'active',
  progress: [],
  turn: 1,
  version: 1,
  createdAt: goalExample.createdAt,
  updatedAt: goalExample.createdAt,
};

/** What a client sends to create `goalExample`. */
export const createGoalExample = {
  objective: goalExample.objective,
  criteria: [
    {
      description: 'Every test of the billing service passes.',
      verify: { kind: 'check', toolId: 'tests.run' },
    },
    { description: 'Ada has read the fix and agrees with it.' },
  ],
  budgets: { modelCalls: 40, prompts: 10 },
};
