import { NotFoundError, type Platform, type Prompt, parentOf, type ToolOutput } from '@tessera/core';

/** The most steps a path has: the waiting call's prompt and up to seven prompts above it. */
export const MAX_PATH_STEPS = 8;

/** One prompt of an approval's path, and the call in it that the path goes through. */
export type PathStep = {
  conversationId: string;
  promptId: string;
  /** The call of this prompt that started the next step's prompt (the last step's: the waiting call). */
  toolCallId?: string;
  toolId?: string;
  /** The prompt's `metadata.agent`: the agent it runs as, when an agent's call started it. */
  agent?: string;
  /** Its conversation's title, when it has one. */
  title?: string;
};

/** The prompt a suspended call waits on: the child it started, which links back to the call. */
export type WaitsOn = { conversationId: string; promptId: string };

/**
 * The paths of one page of approvals, for one user: each walk reads prompts and conversations with the
 * user's own id only (another user's prompt is not found, and ends the walk as a missing one does), and
 * every read is cached for the page, since the calls of a tree share their ancestors.
 */
export class ApprovalPaths {
  readonly #platform: Platform;
  readonly #userId: string;
  readonly #prompts = new Map<string, Promise<Prompt | undefined>>();
  readonly #titles = new Map<string, Promise<string | undefined>>();

  constructor(platform: Platform, userId: string, listed: readonly Prompt[]) {
    this.#platform = platform;
    this.#userId = userId;
    for (const prompt of listed) {
      if (prompt.userId === userId) this.#prompts.set(prompt.id, Promise.resolve(prompt));
    }
  }

  /** The user's prompt of that id; `undefined` when there is none (or it is another user's). */
  #prompt(id: string): Promise<Prompt | undefined> {
    let found = this.#prompts.get(id);
    if (!found) {
      found = this.#platform.getPrompt(id, this.#userId).catch((error: unknown) => {
        if (NotFoundError.is(error)) return undefined;
        throw error;
      });
      this.#prompts.set(id, found);
    }
    return found;
  }

  #title(conversationId: string): Promise<string | undefined> {
    let found = this.#titles.get(conversationId);
    if (!found) {
      found = this.#platform.conversations.get(conversationId, this.#userId).then(
        (conversation) => conversation.title || undefined,
        (error: unknown) => {
          if (NotFoundError.is(error)) return undefined;
          throw error;
        },
      );
      this.#titles.set(conversationId, found);
    }
    return found;
  }

  /**
   * From the top prompt down to `prompt`, `call` being the waiting call in it (none for a pause): each
   * prompt's `parentOf` names the one above. The walk ends at a prompt with no parent, and also at a parent
   * that is missing or another user's, in another conversation than its link says, already on the path (a
   * cycle), or past `MAX_PATH_STEPS`: the path then starts at the highest prompt reached.
   */
  async path(prompt: Prompt, call?: Pick<ToolOutput, 'id' | 'toolId'>): Promise<PathStep[]> {
    const steps: { prompt: Prompt; toolCallId?: string | undefined; toolId?: string | undefined }[] = [
      { prompt, toolCallId: call?.id, toolId: call?.toolId },
    ];
    const seen = new Set([prompt.id]);
    let current = prompt;
    while (steps.length < MAX_PATH_STEPS) {
      const link = parentOf(current);
      if (!link || seen.has(link.promptId)) break;
      const parent = await this.#prompt(link.promptId);
      if (!parent || parent.conversationId !== link.conversationId) break;
      seen.add(parent.id);
      const through = link.toolCallId
        ? parent.output.find((o): o is ToolOutput => o.type === 'tool' && o.id === link.toolCallId)
        : undefined;
      steps.unshift({ prompt: parent, toolCallId: through?.id, toolId: through?.toolId });
      current = parent;
    }
    return Promise.all(
      steps.map(async ({ prompt: p, toolCallId, toolId }) => {
        const agent = p.metadata?.agent;
        const title = await this.#title(p.conversationId);
        return {
          conversationId: p.conversationId,
          promptId: p.id,
          ...(toolCallId !== undefined && { toolCallId }),
          ...(toolId !== undefined && { toolId }),
          // A plugin's metadata: an agent's name, shown as it is when it is a short one.
          ...(typeof agent === 'string' && agent !== '' && agent.length <= 200 && { agent }),
          ...(title !== undefined && { title }),
        };
      }),
    );
  }

  /**
   * The child prompt a suspended call (one that started, then asked to wait) waits on: an output of the
   * call (same `toolCallId`) naming a prompt, that prompt being the user's and its `parentOf` naming this
   * very call. `undefined` for a call that waits for approval before it runs, or waits on something else.
   */
  async waitsOn(prompt: Prompt, call: ToolOutput): Promise<WaitsOn | undefined> {
    if (call.startedAt === undefined) return undefined;
    for (const output of prompt.output) {
      if (output.type === 'tool' || output.toolCallId !== call.id) continue;
      const promptId = (output as { promptId?: unknown }).promptId;
      if (typeof promptId !== 'string' || promptId === prompt.id) continue;
      const child = await this.#prompt(promptId);
      const link = child && parentOf(child);
      if (link && link.promptId === prompt.id && link.toolCallId === call.id) {
        return { conversationId: child.conversationId, promptId: child.id };
      }
    }
    return undefined;
  }
}
