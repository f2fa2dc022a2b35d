import { type AnyTool, createTool, StoreToken } from '@tessera/core';
import { z } from 'zod';
import { describeSchedule, firesOnce } from './describe.ts';
import { type CreateTriggerInput, resolveEnd, resolveSchedule, type UpdateTriggerInput } from './inputs.ts';
import type { TriggersRuntime } from './runtime.ts';
import type { Trigger } from './trigger.ts';
import { type TriggerService, triggerService } from './trigger-service.ts';
import { withTimeZone } from './user-time-zone.ts';

/** A trigger as the model reads it: the schedule in words, and what happened recently. */
function view(service: TriggerService, trigger: Trigger, conversationId: string) {
  return {
    id: trigger.id,
    name: trigger.name,
    instruction: trigger.instruction,
    when: service.describe(trigger),
    status: trigger.status,
    ...(trigger.nextFireAt && { nextFireAt: trigger.nextFireAt }),
    ...(trigger.lastFireAt && { lastFireAt: trigger.lastFireAt, lastOutcome: trigger.lastOutcome }),
    inThisConversation: trigger.conversationId === conversationId,
    recentRuns: trigger.runs.slice(-3).map(({ scheduledFor, outcome, message }) => ({
      scheduledFor,
      outcome,
      ...(message && { message }),
    })),
  };
}

const quote = (text: string) => `“${text.length > 300 ? `${text.slice(0, 300)}…` : text}”`;

/** "every weekday at 09:00 Europe/Paris, next on Mon 24 Nov 09:00", from the input alone. */
function when(runtime: TriggersRuntime, input: CreateTriggerInput['schedule']): string {
  const { schedule, first } = resolveSchedule(input, runtime);
  return describeSchedule(schedule, first, runtime.clock.now());
}

/** What a new trigger will do and when, its end (a date, a number of runs) included. */
function creation(runtime: TriggersRuntime, input: CreateTriggerInput): string {
  const now = runtime.clock.now();
  const { schedule, first } = resolveSchedule(input.schedule, runtime);
  const endAt = input.endAt === undefined ? undefined : resolveEnd(input.endAt, schedule.timeZone, now);
  const ends = { endAt, maxRuns: input.maxRuns };
  const each = firesOnce(schedule, ends) ? 'When it fires' : 'Each time';
  return `Create the trigger ${quote(input.name)}: ${describeSchedule(schedule, first, now, ends)}. ${each}, the assistant will: ${quote(input.instruction)}`;
}

export function createTriggerTool(runtime: TriggersRuntime) {
  return createTool({
    id: 'trigger.create',
    description:
      'Schedules work for later, without the user typing: a reminder, a recurring check, a report. When it fires, a new turn starts in this conversation and you receive the instruction to carry out. The user must approve it. Use it when the user asks for something at a later time or on a schedule.',
    input: runtime.inputs.create,
    requireApproval: ({ input }) => ({
      required: true,
      reason: creation(runtime, input),
    }),
    invoke: async ({ input, userId, conversationId, promptId, services }) => {
      // The tool is not offered in prompts a trigger started; refuse here too, whoever offers it.
      const prompt = await services.resolve(StoreToken).prompts.get(promptId);
      if (prompt?.metadata?.trigger) throw new Error('A trigger cannot create other triggers.');
      const service = triggerService(services);
      const schedule = withTimeZone(input.schedule, runtime.defaultTimeZone);
      const trigger = await service.create({ ...input, schedule }, { userId, conversationId });
      return view(service, trigger, conversationId);
    },
  });
}

export function listTriggersTool() {
  return createTool({
    id: 'trigger.list',
    description:
      "Lists the user's triggers (scheduled prompts): id, schedule in words, status, next fire and recent runs.",
    input: z.object({}),
    readOnly: true,
    invoke: async ({ userId, conversationId, services }) => {
      const service = triggerService(services);
      const triggers = await service.list(userId);
      return triggers.map((trigger) => view(service, trigger, conversationId));
    },
  });
}

/** Only a pause is safe without approval: it can only make a trigger do less. */
const onlyPauses = (input: UpdateTriggerInput) =>
  input.enabled === false &&
  Object.entries(input).every(([key, value]) => key === 'id' || key === 'enabled' || value === undefined);

function describeChanges(runtime: TriggersRuntime, input: UpdateTriggerInput): string {
  const changes = [
    input.schedule && `run ${when(runtime, input.schedule)}`,
    input.instruction !== undefined && `do ${quote(input.instruction)}`,
    input.name !== undefined && `be named ${quote(input.name)}`,
    input.endAt !== undefined && `end at ${input.endAt}`,
    input.maxRuns !== undefined && `stop after ${input.maxRuns} runs`,
    input.missedFires !== undefined && `handle missed fires with '${input.missedFires}'`,
    input.enabled === true && 'resume',
    input.enabled === false && 'pause',
  ].filter(Boolean);
  return `Change the trigger ${input.id} to ${changes.join('; ') || 'stay as it is'}.`;
}

export function updateTriggerTool(runtime: TriggersRuntime) {
  return createTool({
    id: 'trigger.update',
    description:
      'Changes a trigger: its schedule, instruction, name or end; enabled=false pauses it, enabled=true resumes it. Changes other than a pause need the user’s approval.',
    input: runtime.inputs.update,
    requireApproval: ({ input }) =>
      onlyPauses(input) ? { required: false } : { required: true, reason: describeChanges(runtime, input) },
    invoke: async ({ input, userId, conversationId, services }) => {
      const { id, ...changes } = input;
      if (changes.schedule) changes.schedule = withTimeZone(changes.schedule, runtime.defaultTimeZone);
      const service = triggerService(services);
      return view(service, await service.update(userId, id, changes), conversationId);
    },
  });
}

export function deleteTriggerTool() {
  return createTool({
    id: 'trigger.delete',
    description: 'Deletes a trigger: it will not fire again.',
    input: z.object({ id: z.string().describe('The id of the trigger, from trigger.list.') }),
    invoke: async ({ input, userId, services }) => {
      const deleted = await triggerService(services).delete(userId, input.id);
      if (!deleted) throw new Error(`There is no trigger '${input.id}'. Use trigger.list to see the ids.`);
      return { deleted: input.id };
    },
  });
}

export type TriggerTools = {
  create: AnyTool;
  list: AnyTool;
  update: AnyTool;
  delete: AnyTool;
};

export const triggerTools = (runtime: TriggersRuntime): TriggerTools => ({
  create: createTriggerTool(runtime),
  list: listTriggersTool(),
  update: updateTriggerTool(runtime),
  delete: deleteTriggerTool(),
});
