/**
 * Model APIs accept few characters in a tool's name (OpenAI's functions and Anthropic's tools
 * `[a-zA-Z0-9_-]{1,64}`, Gemini a little more), while Tessera's tool ids may contain dots (`email.send`).
 * Each request gets a reversible mapping: ids that are valid names stay as they are, the others have every
 * other character replaced with `_`, with a numeric suffix on the rare collision.
 */
export class ToolNames {
  readonly #toApi = new Map<string, string>();
  readonly #fromApi = new Map<string, string>();

  constructor(ids: Iterable<string>) {
    for (const id of ids) this.toApi(id);
  }

  toApi(id: string): string {
    const known = this.#toApi.get(id);
    if (known) return known;
    const base = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
    let name = base;
    for (let n = 2; this.#fromApi.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
    this.#toApi.set(id, name);
    this.#fromApi.set(name, id);
    return name;
  }

  /** The tool id for a name the model used; unknown names pass through (the loop reports them). */
  fromApi(name: string): string {
    return this.#fromApi.get(name) ?? name;
  }
}
