import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import type { SkillsPlugin } from '@tessera/plugin-skills';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { HttpError } from '../errors.ts';
import { skillExample } from '../examples.ts';
import { Id } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

const SkillInfo = z
  .object({
    name: z.string(),
    description: z.string(),
    kind: z.enum(['folder', 'code']),
    active: z.boolean(),
    resources: z.array(z.string()),
  })
  .meta({ id: 'SkillInfo' });
type Skill = SkillsPlugin['catalogue'] extends ReadonlyMap<string, infer S> ? S : never;

const info = (skill: Skill, active: readonly string[]): z.infer<typeof SkillInfo> => ({
  name: skill.name,
  description: skill.description,
  kind: skill.kind,
  active: active.includes(skill.name),
  resources: skill.kind === 'folder' ? [...skill.resources] : [],
});
const SkillDiagnostic = z.object({
  file: z.string(),
  severity: z
    .enum(['error', 'warning'])
    .describe('`error`: the skill was skipped; `warning`: it was loaded, changed (e.g. its description cut)'),
  message: z.string(),
});
const SkillsList = z.object({ items: z.array(SkillInfo), diagnostics: z.array(SkillDiagnostic) });

/** The skills catalogue, with the skills that were skipped or loaded with a change, and why; activating one. */
export function skillRoutes(app: Api, platform: Platform, skills: SkillsPlugin): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/skills',
      operationId: 'listSkills',
      tags: tags('skills'),
      summary: 'List the skills',
      description:
        'The skills catalogue, read again from the skill folders (edits show without a restart); with `conversationId`, the skills active in that conversation are marked. `diagnostics` says which skill files were skipped or loaded with a change, and why.',
      request: { query: z.object({ conversationId: Id.optional() }) },
      responses: {
        200: json(SkillsList, 'Skills', { items: [skillExample], diagnostics: [] }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { conversationId } = c.req.valid('query');
      let active: string[] = [];
      if (conversationId) {
        await platform.conversations.get(conversationId, c.var.userId);
        active = (await platform.pluginState(conversationId, skills.plugin)).get().active;
      }
      await skills.refresh(); // skill folders edited on disk show up without a restart
      const items = [...skills.catalogue.values()].map((skill) => info(skill, active));
      return c.json({ items, diagnostics: [...skills.diagnostics] }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/skills/{name}/activate',
      operationId: 'activateSkill',
      tags: tags('skills'),
      summary: 'Activate a skill in a conversation',
      description:
        "The skill's instructions join the model's context in this conversation from its next prompt on (the model can also activate one itself).",
      // Skill names (a-z, 0-9, hyphens) are of the one id form of every path parameter.
      request: { params: z.object({ id: Id, name: Id }) },
      responses: {
        200: json(SkillInfo, 'The skill, active', skillExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id, name } = c.req.valid('param');
      await platform.conversations.get(id, c.var.userId); // 404 unless it is the caller's
      await skills.refresh();
      const skill = skills.catalogue.get(name);
      if (!skill) throw new HttpError(404, 'not_found', `There is no skill '${name}'.`);
      await skills.activate(platform, id, name);
      const active = (await platform.pluginState(id, skills.plugin)).get().active;
      return c.json(info(skill, active), 200);
    },
  );
}
