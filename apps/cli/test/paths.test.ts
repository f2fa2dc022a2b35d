import { describe, expect, it } from 'vitest';
import { pauseLines } from '../src/loop-control.ts';
import type { Io } from '../src/render.ts';
import { indented, pathLine } from '../src/sub-runs.ts';

const step = (id: string, fields: { agent?: string; title?: string } = {}) => ({
  conversationId: `conv_${id}`,
  promptId: `prm_${id}`,
  ...fields,
});

describe('paths and nesting', () => {
  it("names the user's conversation by its title, each sub-agent by its name, then what waits", () => {
    const path = [
      step('trip', { title: 'Trip planning' }),
      step('r', { agent: 'researcher', title: 'researcher: find flights' }),
      step('b', { agent: 'booker' }),
    ];
    expect(pathLine(path, 'work.do')).toBe('Trip planning › researcher › booker › work.do');
    // Untitled, or a step without an agent: its conversation.
    expect(pathLine([step('top'), step('code', { title: 'Job' }), step('x')], 'a.b')).toBe(
      'conv_top › Job › conv_x › a.b',
    );
  });

  it("prints a sub-agent's pause with its path; a pause of the user's own prompt without one", () => {
    const pause = {
      pauseId: 'out_1',
      promptId: 'prm_w',
      conversationId: 'conv_w',
      source: 'budget' as const,
      budget: { name: 'maxRounds', limit: 1, used: 1 },
      reason: 'The prompt reached its maxRounds budget (1).',
    };
    const nested = pauseLines(
      { ...pause, path: [step('trip', { title: 'Rome' }), step('w', { agent: 'worker' })] },
      'tessera',
    );
    expect(nested).toContain('\n    path: Rome › worker › (paused)\n');
    expect(pauseLines({ ...pause, path: [step('w', { title: 'Rome' })] }, 'tessera')).not.toContain('path:');
    expect(pauseLines(pause, 'tessera')).not.toContain('path:');
  });

  it('indents every line written, however the text is cut', () => {
    let written = '';
    const io = {
      out: (text: string) => (written += text),
      err: () => {},
      interactive: false,
      color: false,
      command: 'tessera',
    } as Io;
    const inner = indented(indented(io, '  │ '), '  │ ');
    for (const chunk of ['Hel', 'lo\nwor', 'ld\n', '\n', 'end']) inner.out(chunk);
    expect(written).toBe('  │   │ Hello\n  │   │ world\n  │   │ \n  │   │ end');
  });
});
