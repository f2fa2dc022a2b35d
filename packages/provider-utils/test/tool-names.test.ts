import { describe, expect, it } from 'vitest';
import { ToolNames } from '../src/index.ts';

describe('ToolNames', () => {
  it('keeps ids that are valid names, and maps dotted ids to underscores and back', () => {
    const names = new ToolNames(['weather', 'email.send', 'files-read_2']);
    expect(names.toApi('weather')).toBe('weather');
    expect(names.toApi('files-read_2')).toBe('files-read_2');
    expect(names.toApi('email.send')).toBe('email_send');
    expect(names.fromApi('email_send')).toBe('email.send');
    expect(names.fromApi('weather')).toBe('weather');
  });

  it('gives a colliding id a numeric suffix, and the first id keeps its name', () => {
    const names = new ToolNames(['email_send', 'email.send', 'email/send']);
    expect(names.toApi('email_send')).toBe('email_send');
    expect(names.toApi('email.send')).toBe('email_send_2');
    expect(names.toApi('email/send')).toBe('email_send_3');
    expect(names.fromApi('email_send_2')).toBe('email.send');
    expect(names.fromApi('email_send_3')).toBe('email/send');
  });

  it('cuts long ids to 64 characters, suffixes included, and names an id of nothing valid', () => {
    const long = `a.${'b'.repeat(80)}`;
    const longer = `a:${'b'.repeat(80)}`;
    const names = new ToolNames([long, longer, '']);
    expect(names.toApi(long)).toBe(`a_${'b'.repeat(62)}`);
    expect(names.toApi(longer)).toBe(`a_${'b'.repeat(58)}_2`);
    expect(names.toApi(longer)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names.fromApi(names.toApi(longer))).toBe(longer);
    expect(names.toApi('')).toBe('tool');
  });

  it('maps an id given later the same way, and passes unknown names through', () => {
    const names = new ToolNames(['a.b']);
    expect(names.toApi('a.b')).toBe(names.toApi('a.b'));
    expect(names.toApi('c.d')).toBe('c_d');
    expect(names.fromApi('c_d')).toBe('c.d');
    expect(names.fromApi('no_such_tool')).toBe('no_such_tool');
  });
});
