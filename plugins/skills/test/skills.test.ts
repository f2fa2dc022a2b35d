import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform, createTool, MemoryStore, type ToolOutput } from '@tessera/core';
import { callTool, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSkillsPlugin, defineSkill, loadSkillFolders, readResource } from '../src/index.ts';
import type { FolderSkill } from '../src/skill.ts';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;

const email = defineSkill({
  name: 'email',
  description: 'Send and read email.',
  instructions: 'Always confirm the recipient before sending.',
  tools: [
    createTool({
      id: 'email.send',
      description: 'Send an email.',
      input: z.object({ to: z.string() }),
      invoke: ({ input }) => ({ sent: input.to }),
    }),
    createTool({ id: 'email.read', description: 'Read the inbox.', input: z.object({}), invoke: () => [] }),
  ],
});

/**
 * A copy of the skill fixtures whose `release-notes/assets` holds links that lead out of the skill folder,
 * to a readable secret beside it: a relative link to the file and an absolute link to its folder. Made at
 * test time so the repository holds no links that point outside it.
 */
function fixturesWithEscapes(): { cwd: string; secret: string; [Symbol.dispose](): void } {
  const cwd = mkdtempSync(join(tmpdir(), 'skills-escape-'));
  cpSync(join(fixtures, 'skills'), join(cwd, 'skills'), { recursive: true });
  const secret = 'secret outside the skill folder';
  mkdirSync(join(cwd, 'outside'));
  writeFileSync(join(cwd, 'outside', 'secret.txt'), secret);
  const assets = join(cwd, 'skills', 'release-notes', 'assets');
  symlinkSync('../../../outside/secret.txt', join(assets, 'secret-link'));
  symlinkSync(join(cwd, 'outside'), join(assets, 'escape'), 'dir');
  return { cwd, secret, [Symbol.dispose]: () => rmSync(cwd, { recursive: true, force: true }) };
}

const toolNames = (model: ScriptedModel, round: number) => model.requests[round]!.tools.map((t) => t.name);
const result = (output: unknown) => (output as ToolOutput).result;

describe('skill folders', () => {
  it('loads valid skills and reports each bad one with its file and reason', async () => {
    const { skills, diagnostics } = await loadSkillFolders(['skills', 'other', 'missing'], fixtures);
    expect(skills.map((s) => s.name)).toEqual(['api-reference', 'pdf-processing', 'release-notes']);
    const pdf = skills[1]!;
    expect(pdf).toMatchObject({
      description: expect.stringContaining('Extract text and tables'),
      license: 'Apache-2.0',
      allowedTools: 'Bash(python:*) Read',
      metadata: { author: 'example-org', version: '1.0' },
      resources: ['scripts/extract.py', 'references/diagram.png', 'references/forms.md'],
    });
    expect(pdf.instructions.startsWith('# PDF processing')).toBe(true);
    const byFolder = Object.fromEntries(diagnostics.map((d) => [d.file.split('/').at(-2), d.message]));
    expect(byFolder['broken-yaml']).toContain('not valid YAML');
    expect(byFolder['no-description']).toContain("'description'");
    expect(byFolder['wrong-name']).toContain("does not match the folder name 'wrong-name'");
    expect(byFolder['not-a-skill']).toContain('no SKILL.md');
    expect(diagnostics.find((d) => d.file.includes('/other/'))?.message).toContain('already loaded');
    const skipped = diagnostics.filter((d) => !d.file.includes('/api-reference/'));
    expect(skipped.map((d) => d.severity)).toEqual(skipped.map(() => 'error'));
  });

  it('keeps a skill whose description is over the limit, with a warning and a shortened catalogue entry', async () => {
    const skills = await createSkillsPlugin({ directories: ['skills'], cwd: fixtures });
    const skill = skills.catalogue.get('api-reference')!;
    expect(skill.description.length).toBeLessThanOrEqual(1024);
    expect(skill.description.length).toBeGreaterThan(900);
    expect(skill.description).toMatch(/^Reference for the Example Cloud API/);
    expect(skill.description).toMatch(/[a-z]…$/); // cut between words, not inside one
    expect(skill.description).not.toContain('TAIL-MARKER');
    expect(skills.diagnostics.filter((d) => d.file.includes('/api-reference/'))).toEqual([
      {
        file: expect.stringMatching(/api-reference\/SKILL\.md$/),
        severity: 'warning',
        message: expect.stringContaining('has 1163 characters, over the limit of 1024'),
      },
    ]);

    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [callTool('skills.activate', { name: 'api-reference' }), reply('ok')],
    });
    await t.send('How do I page through Example Cloud results?');
    expect(t.model.requests[0]!.instructions).toContain(`- api-reference: ${skill.description}\n`);
    expect(t.model.requests[0]!.instructions).not.toContain('TAIL-MARKER');
    expect(t.model.requests[1]!.instructions).toContain('Look up the endpoint in `references/`');
  });
});

describe('the skills plugin', () => {
  it('offers a skill’s tools from the round after activation, and removes them after deactivation', async () => {
    const skills = await createSkillsPlugin({ directories: [], skills: [email] });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [
        callTool('skills.activate', { name: 'email' }),
        callTool('email.send', { to: 'ada@example.com' }),
        callTool('skills.deactivate', { name: 'email' }),
        reply('Done.'),
      ],
    });
    const prompt = await t.send('Email Ada');
    expect(prompt.state).toBe('completed');
    expect(toolNames(t.model, 0)).toEqual(['skills.activate', 'skills.deactivate']);
    expect(toolNames(t.model, 1)).toEqual([
      'skills.activate',
      'skills.deactivate',
      'email.send',
      'email.read',
    ]);
    expect(toolNames(t.model, 3)).toEqual(['skills.activate', 'skills.deactivate']);
    expect(t.model.requests[0]!.instructions).toContain('- email: Send and read email.');
    expect(t.model.requests[1]!.instructions).toContain('Always confirm the recipient');
    expect(t.model.requests[3]!.instructions).not.toContain('Always confirm the recipient');
  });

  it('keeps the active set per conversation, across platform instances over one store', async () => {
    const store = new MemoryStore();
    const skills = await createSkillsPlugin({ directories: [], skills: [email] });
    const a = createPlatform({
      plugins: [skills.plugin],
      store,
      model: new ScriptedModel([
        callTool('skills.activate', { name: 'email' }),
        callTool('skills.activate', { name: 'email' }),
        reply('ok'),
      ]),
    });
    const first = await a.conversations.create({ userId: 'u' });
    const other = await a.conversations.create({ userId: 'u' });
    const activated = await a.send({ conversationId: first.id, userId: 'u', input: 'activate email' });
    expect(result(activated.output[1])).toMatchObject({
      type: 'success',
      output: { active: ['email'], note: 'email was already active.' },
    });

    const model = new ScriptedModel([reply('still active'), reply('not here')]);
    const b = createPlatform({
      plugins: [(await createSkillsPlugin({ directories: [], skills: [email] })).plugin],
      store,
      model,
    });
    await b.send({ conversationId: first.id, userId: 'u', input: 'next' });
    await b.send({ conversationId: other.id, userId: 'u', input: 'other conversation' });
    expect(toolNames(model, 0)).toContain('email.send');
    expect(toolNames(model, 1)).not.toContain('email.send');
  });

  it('puts a folder skill’s body and file list in context, and reads its files safely', async () => {
    using copy = fixturesWithEscapes();
    const skills = await createSkillsPlugin({ directories: ['skills'], cwd: copy.cwd });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [
        callTool('skills.activate', { name: 'release-notes' }),
        callTool('skills.read_resource', { name: 'release-notes', path: 'assets/template.md' }),
        callTool('skills.read_resource', { name: 'release-notes', path: '../pdf-processing/SKILL.md' }),
        callTool('skills.read_resource', {
          name: 'release-notes',
          path: join(copy.cwd, 'outside/secret.txt'),
        }),
        callTool('skills.read_resource', { name: 'release-notes', path: 'assets/secret-link' }),
        callTool('skills.read_resource', { name: 'release-notes', path: 'assets/escape/secret.txt' }),
        callTool('skills.read_resource', { name: 'pdf-processing', path: 'references/forms.md' }),
        reply('Done.'),
      ],
    });
    const prompt = await t.send('Write release notes');
    const results = prompt.output.filter((o) => o.type === 'tool').map(result);
    expect(results[1]).toEqual({
      type: 'success',
      output: '## Features\n\n## Fixes\n\n## Breaking changes\n',
    });
    for (const refused of results.slice(2, 6)) expect(refused?.type).toBe('error');
    expect(JSON.stringify(results[2])).toContain('not a path inside the skill folder');
    expect(JSON.stringify(results[3])).toContain('not a path inside the skill folder');
    expect(JSON.stringify(results[4])).toContain('leads outside the folder');
    expect(JSON.stringify(results[5])).toContain('leads outside the folder');
    expect(JSON.stringify(results)).not.toContain(copy.secret);
    expect(JSON.stringify(results[6])).toContain('Activate skill');
    // Links are not listed as the skill's files either.
    expect(skills.catalogue.get('release-notes')).toMatchObject({ resources: ['assets/template.md'] });
    expect(t.model.requests[1]!.instructions).toContain('Group the changes under **Features**');
    expect(t.model.requests[1]!.instructions).toContain(
      'Files of this skill (read them with skills.read_resource): assets/template.md',
    );
    expect(t.model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('skills.read_resource');
  });

  it('refuses binary and oversized files', async () => {
    const skills = await createSkillsPlugin({ directories: ['skills'], cwd: fixtures, maxResourceBytes: 40 });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [
        callTool('skills.activate', { name: 'pdf-processing' }),
        callTool('skills.read_resource', { name: 'pdf-processing', path: 'references/diagram.png' }),
        callTool('skills.read_resource', { name: 'pdf-processing', path: 'references/forms.md' }),
        reply('ok'),
      ],
    });
    const results = (await t.send('go')).output
      .filter((o) => o.type === 'tool')
      .map((o) => JSON.stringify(result(o)));
    expect(results[1]).toContain('binary');
    expect(results[2]).toContain('over the limit of 40');
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a named pipe at once, never waiting for a writer',
    async () => {
      using copy = fixturesWithEscapes();
      const pipe = join(copy.cwd, 'skills', 'release-notes', 'assets', 'pipe');
      execFileSync('mkfifo', [pipe]);
      const { skills } = await loadSkillFolders(['skills'], copy.cwd);
      const skill = skills.find((s) => s.name === 'release-notes') as FolderSkill;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('still waiting after 2 s'), 2_000);
      });
      try {
        const read = readResource(skill, 'assets/pipe', 1_000).then(
          () => 'read',
          (error: Error) => error.message,
        );
        expect(await Promise.race([read, waited])).toBe("'assets/pipe' is not a file.");
      } finally {
        clearTimeout(timer);
        // A read still blocked in open() holds a thread of the pool: a writer lets it go (none waits: ENXIO).
        try {
          closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {}
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    'skips a skill whose SKILL.md is a named pipe, never waiting for a writer',
    async () => {
      using copy = fixturesWithEscapes();
      const skillFile = join(copy.cwd, 'skills', 'release-notes', 'SKILL.md');
      rmSync(skillFile);
      execFileSync('mkfifo', [skillFile]);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('still waiting after 2 s'), 2_000);
      });
      try {
        const loaded = loadSkillFolders(['skills'], copy.cwd).then(({ skills, diagnostics }) => ({
          skills: skills.map((s) => s.name),
          diagnostics: diagnostics.map((d) => d.message),
        }));
        expect(await Promise.race([loaded, waited])).toMatchObject({
          skills: ['api-reference', 'pdf-processing'],
          diagnostics: expect.arrayContaining(['SKILL.md is not a file']),
        });
      } finally {
        clearTimeout(timer);
        try {
          closeSync(openSync(skillFile, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {}
      }
    },
  );

  it('activates a skill from `/skill-name` in the input, or for the user from the app', async () => {
    const skills = await createSkillsPlugin({ directories: ['skills'], cwd: fixtures });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [reply('Using PDF skills.'), reply('ok')],
    });
    await t.send('/pdf-processing extract page 3');
    expect(t.model.requests[0]!.instructions).toContain('Skill "pdf-processing" is active');
    await skills.activate(t.platform, t.conversation.id, 'release-notes');
    await t.send('and now?');
    expect(t.model.requests[1]!.instructions).toContain('Skill "release-notes" is active');
    await expect(skills.activate(t.platform, t.conversation.id, 'nope')).rejects.toThrow("no skill 'nope'");
  });

  it('reads a skill name of at most 64 characters from a `/` input, however long the input', async () => {
    const skills = await createSkillsPlugin({ directories: ['skills'], cwd: fixtures });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [reply('no skill'), reply('PDF skill')],
    });
    await t.send(`/${'pdf-processing'.repeat(10_000)}`); // no name, however long, is a command
    expect(t.model.requests[0]!.instructions).not.toContain('is active');
    await t.send(`/pdf-processing ${'x'.repeat(100_000)}`);
    expect(t.model.requests[1]!.instructions).toContain('Skill "pdf-processing" is active');
  });

  it('sees skills edited, added and removed on disk from the next round on, without a restart', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skills-live-'));
    const write = (name: string, description: string, body = 'Do it step by step.') => {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(
        join(root, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`,
      );
    };
    write('alpha', 'First version.');
    const skills = await createSkillsPlugin({ directories: [root], refreshInterval: 0 });
    const t = await createTestPlatform({
      plugins: [skills.plugin],
      script: [
        callTool('skills.activate', { name: 'alpha' }),
        () => {
          write('alpha', 'Second version.', 'Edited body.');
          mkdirSync(join(root, 'alpha', 'references'));
          writeFileSync(join(root, 'alpha', 'references', 'guide.md'), '# Guide');
          write('beta', 'Brand new.');
          return callTool('skills.deactivate', { name: 'alpha' });
        },
        callTool('skills.activate', { name: 'beta' }),
        () => {
          rmSync(join(root, 'alpha'), { recursive: true });
          writeFileSync(join(root, 'beta', 'SKILL.md'), 'no frontmatter any more');
          return reply('Done.');
        },
        reply('Nothing to offer.'),
      ],
    });
    const prompt = await t.send('go');
    const sent = (round: number) => t.model.requests[round]!.instructions;
    expect(sent(0)).toContain('- alpha: First version.');
    expect(sent(1)).toContain('Do it step by step.');
    expect(sent(2)).toContain('- alpha: Second version.');
    expect(sent(2)).toContain('- beta: Brand new.');
    // Deactivated in round 1; beta, added while round 1 ran, can be activated in round 2.
    expect(sent(2)).not.toContain('Edited body.');
    expect(prompt.output.filter((o) => o.type === 'tool').map((o) => result(o)?.type)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(sent(3)).toContain('Skill "beta" is active');

    await t.send('and now?');
    expect(t.model.requests[4]!.instructions).toBe('');
    expect(t.model.requests[4]!.tools).toEqual([]);
    expect([...skills.catalogue.keys()]).toEqual([]);
    expect(skills.diagnostics).toEqual([
      {
        file: join(root, 'beta', 'SKILL.md'),
        severity: 'error',
        message: expect.stringContaining('frontmatter'),
      },
    ]);

    write('alpha', 'Back again.', 'Edited body.');
    mkdirSync(join(root, 'alpha', 'references'));
    writeFileSync(join(root, 'alpha', 'references', 'guide.md'), '# Guide');
    await skills.activate(t.platform, t.conversation.id, 'alpha');
    expect(skills.catalogue.get('alpha')).toMatchObject({
      description: 'Back again.',
      resources: ['references/guide.md'],
    });
  });

  it('offers nothing when there are no skills at all', async () => {
    const skills = await createSkillsPlugin({ directories: ['missing'], cwd: fixtures });
    const t = await createTestPlatform({ plugins: [skills.plugin], script: [reply('hi')] });
    await t.send('hello');
    expect(t.model.requests[0]!.tools).toEqual([]);
    expect(t.model.requests[0]!.instructions).toBe('');
  });

  it('rejects bad code skills when they are defined', () => {
    expect(() => defineSkill({ name: 'Bad Name', description: 'x', instructions: 'y' })).toThrow('not valid');
    expect(() => defineSkill({ name: 'ok', description: '', instructions: 'y' })).toThrow('description');
  });
});
