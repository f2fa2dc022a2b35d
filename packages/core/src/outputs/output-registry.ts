import { z } from 'zod';
import { DefinitionError, OutputValidationError } from '../errors.ts';
import type { OutputBase, PromptOutput } from '../model/outputs.ts';
import { assistantMessage, type ModelMessage } from '../provider/messages.ts';
import { coreOutputs } from './core-outputs.ts';
import type { AnyOutputVariant, ProjectionContext } from './define-output.ts';

type Entry = { variant: AnyOutputVariant; owner: string };

/** The variants a platform knows: core's, plus those its plugins registered. */
export class OutputRegistry {
  readonly #entries = new Map<string, Entry>();

  constructor() {
    for (const variant of coreOutputs) this.register(variant, 'core');
  }

  register(variant: AnyOutputVariant, owner: string): void {
    const existing = this.#entries.get(variant.type);
    if (existing) {
      throw new DefinitionError(
        `Output type '${variant.type}' is registered twice: by '${existing.owner}' and by '${owner}'.`,
      );
    }
    this.#entries.set(variant.type, { variant, owner });
  }

  has(type: string): boolean {
    return this.#entries.has(type);
  }

  /** Validates an output against its variant's schema; unknown types and mismatches are errors. */
  validate(output: OutputBase): PromptOutput {
    const entry = this.#entries.get(output.type);
    if (!entry) {
      throw new OutputValidationError(
        `Output type '${output.type}' is not registered; install the plugin that defines it.`,
      );
    }
    const parsed = entry.variant.schema.safeParse(output);
    if (!parsed.success) {
      throw new OutputValidationError(
        `Output of type '${output.type}' (from '${entry.owner}') is invalid:\n${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data as PromptOutput;
  }

  /**
   * The model's view of one output. Outputs whose variant is not installed (a plugin was removed) are kept
   * in the record but not shown to the model, like any display-only output.
   */
  project(output: OutputBase, context: ProjectionContext): ModelMessage[] {
    const project = this.#entries.get(output.type)?.variant.project;
    if (!project || project === 'skip') return [];
    if (typeof project === 'function') return project(output, context);
    return [assistantMessage(context.bound(project.summary(output)))];
  }
}
