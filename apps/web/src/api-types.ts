// Generated from the server's OpenAPI document by scripts/generate-api-types.ts. Do not edit.
export interface paths {
    "/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in: exchange a token for a session cookie
         * @description Sets the `tessera_session` cookie (HttpOnly, SameSite=Strict, Secure on https). Requests it signs in that change anything must send the `X-Requested-With` header.
         */
        post: operations["signIn"];
        /**
         * Sign out: clear the session cookie
         * @description Needs the `x-requested-with` header, as every cookie request that changes something: another site cannot sign you out.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who you are, which model answers, and which plugins the server runs */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your conversations, most recent first */
        get: operations["listConversations"];
        put?: never;
        /** Create a conversation */
        post: operations["createConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation with its prompts and every output */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        /** Delete a conversation and its prompts */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        /** Rename a conversation */
        patch: operations["renameConversation"];
        trace?: never;
    };
    "/api/conversations/{id}/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send input: starts a prompt and answers at once; follow it on the event stream */
        post: operations["sendPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prompt with every output */
        get: operations["getPrompt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a running prompt, or one waiting for approval */
        post: operations["cancelPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prompt's run report: per model call latency, time to first token, tokens and cost; per tool call latency, result size and outcome; totals and why it stopped */
        get: operations["getPromptReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your tool calls waiting for approval, across conversations
         * @description A page of up to `limit` waiting prompts (50 unless given, at most 200), oldest first, with all the pending calls of each: a prompt's pending calls are never split across pages, so a page may hold more than `limit` items, or none while `nextCursor` is there. Follow `nextCursor` until it is absent to have them all. A cursor this list did not give is a 400.
         */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tool-calls/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a pending tool call: it runs once and the prompt resumes
         * @description Send `{ "input": {...} }` to run the call with edited arguments: they are validated by the tool's schema (a mismatch is a 400 `invalid_approval_input` listing the issues, and the call still waits). The prompt records the model's `input` and the approved `editedInput`; the model is sent the approved ones.
         */
        post: operations["approveToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tool-calls/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a pending tool call: the model reads why and the prompt resumes */
        post: operations["rejectToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The conversation's waiting messages, oldest first */
        get: operations["listMessages"];
        put?: never;
        /**
         * Send a message while the agent works: steer the running prompt or queue a follow-up
         * @description Unlike `sendPrompt`, never answers 409 when a prompt runs or waits for approval: with `mode: "steer"` the running prompt reads the message at its next round boundary, with `mode: "queue"` it runs as the next prompt when the current one ends (in the order sent). On an idle conversation it starts a prompt at once (`prompt` in the answer). A waiting message is announced with `message.queued` on the event stream.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take a waiting message off the list: it is never delivered */
        delete: operations["removeMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pauses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your prompts paused for a decision (continue or stop), across conversations
         * @description A page of up to `limit` waiting prompts (50 unless given, at most 200), oldest first, with all the pending pauses of each: a prompt's pending pauses are never split across pages, so a page may hold more than `limit` items, or none while `nextCursor` is there. Follow `nextCursor` until it is absent to have them all. A cursor this list did not give is a 400.
         */
        get: operations["listPauses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pauses/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide a pause: continue the prompt, or stop it
         * @description At a budget pause (`source: budget`), `continue` needs `budgets` with a larger limit for the budget reached (e.g. `{ "choice": "continue", "budgets": { "maxRounds": 50 } }`); the prompt goes on from where it stopped. `budgets` at another pause, with `stop`, with an unknown name, or not larger than what was used is a 400.
         */
        post: operations["resumePause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tool-calls/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tool call, with the JSON Schema of its tool's arguments (to edit them before approving) */
        get: operations["getToolCall"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tools the conversation offers the model (as its next prompt would), to run one yourself */
        get: operations["listConversationTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/tool-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a tool yourself: a prompt whose first round is your call, not the model’s
         * @description The user calls a tool themselves, as the model would: a prompt starts (no input, `metadata.toolRun: true`) whose first output is that call. It goes the way of the model's calls: the plugins' hooks and permission policies and the tool's `requireApproval` decide whether it waits for approval (then approve or reject it at /api/tool-calls/{id}), its outputs are recorded and streamed as the chat's are, and the prompt ends after the call without asking the model. Counted as a send (`rateLimits.promptsPerUser`).
         */
        post: operations["runTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a conversation live: Server-Sent Events, resumable
         * @description Every event of the conversation as it happens: `prompt.started`, `prompt.output`, `prompt.output-updated`, `prompt.text-delta`, `prompt.approval-requested`, `prompt.resumed`, `prompt.completed`, `prompt.failed`, `prompt.cancelled`, `prompt.hook-failed`, `prompt.guardrail-tripped`, `prompt.pause-requested`, `prompt.pause-decided`, `prompt.steered`, `message.queued`, `message.removed` (the `ConversationEvent` schema: one per type), each with the event's JSON as `data` and an `id`. The stream opens with `ready` (`{ "boot" }`) and sends a comment every 15 s. To resume after a dropped connection, send the last id as `Last-Event-ID` (EventSource does) or `?lastEventId=`: the missed events come first. When the server cannot replay them (another process, or too old), a `reset` event comes first: reload the conversation. A stream whose reader falls behind (more than the server's `limits.streamQueueBytes` of events wait while its connection takes nothing) is cut: reconnect with the last id received, as for any dropped connection. Each user has at most `limits.streamsPerUser` streams open at once: past it, 429 `too_many_streams`. A browser is authorized by its session cookie (no token in the URL); programs send a bearer token.
         */
        get: operations["streamConversationEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your triggers, optionally of one conversation */
        get: operations["listTriggers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/triggers/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a trigger: no fires until resumed */
        post: operations["pauseTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/triggers/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused trigger */
        post: operations["resumeTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/triggers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a trigger */
        delete: operations["deleteTrigger"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The skills catalogue (active ones marked, for a conversation) and loading diagnostics */
        get: operations["listSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/skills/{name}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate a skill in a conversation (its instructions join the model's context from the next prompt) */
        post: operations["activateSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/blueprints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your blueprints and the shared ones */
        get: operations["listBlueprints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/blueprints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A blueprint in full */
        get: operations["getBlueprint"];
        put?: never;
        post?: never;
        /** Delete one of your blueprints */
        delete: operations["deleteBlueprint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download a file of a conversation (?inline=1 to view images and text in the browser) */
        get: operations["downloadConversationFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/instructions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your standing instructions for the model */
        get: operations["getInstructions"];
        /** Replace your standing instructions (the model reads them from its next call in every prompt of yours) */
        put: operations["setInstructions"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The app's MCP servers: state, transport, tools, prompts and the last error */
        get: operations["listMcpServers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error: a stable code and a message. */
        Error: {
            error: {
                code: string;
                message: string;
            };
        };
        Conversation: {
            id: string;
            userId: string;
            title?: string;
            promptIds: string[];
            pluginState: {
                [key: string]: unknown;
            };
            createdAt: string;
            updatedAt: string;
        };
        Prompt: {
            id: string;
            conversationId: string;
            userId: string;
            /** @enum {string} */
            model: "normal" | "high";
            visible: boolean;
            /** @enum {string} */
            state: "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled";
            input?: string;
            output: ({
                type: string;
                id: string;
                createdAt: string;
                toolCallId?: string;
            } & {
                [key: string]: unknown;
            })[];
            usage: {
                inputTokens: number;
                outputTokens: number;
                cachedInputTokens: number;
                reasoningTokens: number;
                totalTokens: number;
                modelCalls: number;
                cost?: number;
            };
            stopReason?: {
                code: string;
                message: string;
            };
            metadata?: {
                [key: string]: unknown;
            };
            createdAt: string;
            updatedAt: string;
        };
        PromptReport: {
            promptId: string;
            /** @enum {string} */
            state: "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled";
            startedAt: string;
            endedAt?: string;
            totalMs?: number;
            stop: string;
            stopReason?: {
                code: string;
                message: string;
            };
            modelCalls: {
                responseId: string;
                model?: string;
                startedAt: string;
                endedAt: string;
                latencyMs: number;
                timeToFirstTokenMs?: number;
                inputTokens: number;
                outputTokens: number;
                cachedInputTokens: number;
                reasoningTokens: number;
                cost?: number;
                finishReason?: string;
                toolCalls: number;
            }[];
            toolCalls: {
                id: string;
                callId: string;
                toolId: string;
                responseId?: string;
                startedAt?: string;
                endedAt?: string;
                latencyMs?: number;
                resultBytes: number;
                /** @enum {string} */
                outcome: "success" | "error" | "pending" | "not_run";
                errorCode?: string;
            }[];
            totals: {
                modelCalls: number;
                toolCalls: number;
                failedToolCalls: number;
                inputTokens: number;
                outputTokens: number;
                cachedInputTokens: number;
                reasoningTokens: number;
                cost?: number;
                modelMs: number;
                toolMs: number;
            };
            compaction?: {
                outputId: string;
                prompts: number;
                tokensBefore: number;
                threshold: number;
                summarized: boolean;
                error?: string;
                startedAt?: string;
                endedAt?: string;
                latencyMs?: number;
                inputTokens?: number;
                outputTokens?: number;
            };
            context?: {
                tokens: number;
                reported: number;
                estimated: number;
                budget?: number;
            };
        };
        PendingApproval: {
            toolCallId: string;
            promptId: string;
            conversationId: string;
            toolId: string;
            input?: unknown;
            reason: string;
            createdAt: string;
        };
        /** @description A message waiting for its conversation. It stays in the store (through restarts) until it is delivered or you remove it. */
        QueuedMessage: {
            /** @description A queued message runs as the prompt with this same id. */
            id: string;
            conversationId: string;
            userId: string;
            /**
             * @description `steer`: the running prompt reads the message at its next round boundary (never between a tool call and its result). `queue`: the message runs as the next prompt once the current one ends, in order. On an idle conversation either runs at once.
             * @enum {string}
             */
            mode: "steer" | "queue";
            input: string;
            /**
             * @description The model class of the prompt it runs as.
             * @enum {string}
             */
            model?: "normal" | "high";
            /** @description The metadata of the prompt it runs as, e.g. the sender's `timeZone`. */
            metadata?: {
                [key: string]: unknown;
            };
            createdAt: string;
        };
        PendingPause: {
            pauseId: string;
            promptId: string;
            conversationId: string;
            /**
             * @description `doom_loop`: the model repeated the same tool calls; `plugin`: a plugin paused the prompt; `budget`: the prompt reached a budget (`budget`), continue with a larger one or stop.
             * @enum {string}
             */
            source: "doom_loop" | "plugin" | "budget";
            plugin?: string;
            budget?: components["schemas"]["ReachedBudget"];
            reason: string;
            createdAt: string;
        };
        ReachedBudget: {
            /** @description The budget, as named in `budgets`, e.g. `maxRounds`. */
            name: string;
            limit: number;
            /** @description What the prompt had used of it when it paused. */
            used: number;
        };
        /** @description Larger limits to continue with, past a budget pause (`source: budget`): the budget it names must be among them, each larger than what the prompt has used (the pause's `budget.used`), else a 400. They hold for the rest of the prompt. */
        BudgetRaise: {
            maxRounds?: number;
            maxToolCalls?: number;
            maxTokens?: number;
            maxInputTokens?: number;
            maxOutputTokens?: number;
            maxCost?: number;
            maxConsecutiveToolErrors?: number;
        };
        ToolCallDetail: {
            toolCallId: string;
            promptId: string;
            toolId: string;
            /** @description The model's arguments. */
            input?: unknown;
            /** @description The arguments it ran with, when edited. */
            editedInput?: unknown;
            result?: {
                /** @enum {string} */
                type: "success" | "error" | "pending";
            } & {
                [key: string]: unknown;
            };
            /** @description The JSON Schema of the tool's arguments; absent for a tool a plugin makes per round (edit the JSON as it is). */
            inputSchema?: {
                [key: string]: unknown;
            };
        };
        OfferedTools: {
            items: components["schemas"]["OfferedTool"][];
        };
        OfferedTool: {
            /** @example tickets.create */
            id: string;
            description: string;
            plugin: string;
            /** @description The JSON Schema of the tool's arguments, as the model is sent it */
            inputSchema: {
                [key: string]: unknown;
            };
            /**
             * @description Whether a call waits for the user's approval by the tool's own `requireApproval`: `depends` on the arguments (a plugin's hooks and permission policies may ask too)
             * @enum {string}
             */
            approval: "always" | "never" | "depends";
            readOnly: boolean;
        };
        RunTool: {
            /** @description The id of a tool the conversation offers */
            toolId: string;
            /**
             * @description The tool's arguments, checked against its schema (a 400 `invalid_arguments` lists the issues); at most `limits.maxInputChars` characters as JSON, else a 413 `input_too_large`
             * @default {}
             */
            input: {
                [key: string]: unknown;
            };
            /**
             * @description The user's IANA time zone (e.g. `Europe/Paris`): the model is told the user's local time, and schedules it creates in this prompt run in this zone unless they name another.
             * @example Europe/Paris
             */
            timeZone?: string;
        };
        /** @description One event's `data`; the SSE `event` field is its `type`. */
        ConversationEvent: components["schemas"]["Event_prompt_started"] | components["schemas"]["Event_prompt_output"] | components["schemas"]["Event_prompt_output_updated"] | components["schemas"]["Event_prompt_output_removed"] | components["schemas"]["Event_prompt_text_delta"] | components["schemas"]["Event_prompt_approval_requested"] | components["schemas"]["Event_prompt_resumed"] | components["schemas"]["Event_prompt_completed"] | components["schemas"]["Event_prompt_failed"] | components["schemas"]["Event_prompt_cancelled"] | components["schemas"]["Event_prompt_hook_failed"] | components["schemas"]["Event_prompt_guardrail_tripped"] | components["schemas"]["Event_prompt_pause_requested"] | components["schemas"]["Event_prompt_pause_decided"] | components["schemas"]["Event_prompt_steered"] | components["schemas"]["Event_message_queued"] | components["schemas"]["Event_message_removed"];
        Event_prompt_started: {
            prompt: components["schemas"]["Prompt"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.started";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_output: {
            output: {
                type: string;
                id: string;
                createdAt: string;
                toolCallId?: string;
            } & {
                [key: string]: unknown;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.output";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_output_updated: {
            output: {
                type: string;
                id: string;
                createdAt: string;
                toolCallId?: string;
            } & {
                [key: string]: unknown;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.output-updated";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_output_removed: {
            outputId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.output-removed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_text_delta: {
            outputId: string;
            delta: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.text-delta";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_approval_requested: {
            toolCallId: string;
            toolId: string;
            input?: unknown;
            reason: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.approval-requested";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_resumed: {
            /** @enum {string} */
            state: "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.resumed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_completed: {
            prompt: components["schemas"]["Prompt"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.completed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_failed: {
            prompt: components["schemas"]["Prompt"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.failed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description The prompt was cancelled (by the user, or its conversation was deleted). */
        Event_prompt_cancelled: {
            prompt: components["schemas"]["Prompt"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.cancelled";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description A plugin's hook, guardrail or permission policy threw; what it led to is recorded. */
        Event_prompt_hook_failed: {
            plugin: string;
            hook: string;
            message: string;
            toolCallId?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.hook-failed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description A plugin's guardrail tripped: the prompt ends at once (`stopReason.code: guardrail`). */
        Event_prompt_guardrail_tripped: {
            plugin: string;
            /** @enum {string} */
            guardrail: "input" | "output";
            reason: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.guardrail-tripped";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description The prompt waits for a decision, continue or stop (a repeated loop of calls, or a plugin). */
        Event_prompt_pause_requested: {
            /** @description The pause to decide: POST /api/pauses/{outputId}/resume */
            outputId: string;
            /**
             * @description `doom_loop`: the model repeated the same tool calls; `plugin`: a plugin paused the prompt; `budget`: the prompt reached a budget (`budget`), continue with a larger one or stop.
             * @enum {string}
             */
            source: "doom_loop" | "plugin" | "budget";
            plugin?: string;
            budget?: components["schemas"]["ReachedBudget"];
            reason: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.pause-requested";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Event_prompt_pause_decided: {
            outputId: string;
            /** @enum {string} */
            choice: "continue" | "stop";
            decidedBy: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.pause-decided";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description A steering message reached the running prompt (a `steering` output the model reads next). */
        Event_prompt_steered: {
            messageId: string;
            outputId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "prompt.steered";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description A message waits for the conversation (`promptId` is its id: a queued one runs as that prompt). */
        Event_message_queued: {
            message: components["schemas"]["QueuedMessage"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.queued";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        /** @description A waiting message was removed by its user. */
        Event_message_removed: {
            messageId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.removed";
            promptId: string;
            conversationId: string;
            userId: string;
        };
        Trigger: {
            id: string;
            userId: string;
            conversationId: string;
            name: string;
            instruction: string;
            schedule: {
                /** @enum {string} */
                kind: "cron";
                expression: string;
                timeZone: string;
            } | {
                /** @enum {string} */
                kind: "once";
                /** Format: date-time */
                at: string;
                timeZone: string;
            } | {
                /** @enum {string} */
                kind: "interval";
                everyMinutes: number;
                /** Format: date-time */
                startAt: string;
                timeZone: string;
            };
            /** @enum {string} */
            missedFires: "skip" | "once";
            /** Format: date-time */
            endAt?: string;
            maxRuns?: number;
            /** @enum {string} */
            status: "active" | "paused" | "ended";
            /** Format: date-time */
            nextFireAt?: string;
            queued?: {
                /** Format: date-time */
                scheduledFor: string;
                /** Format: date-time */
                queuedAt: string;
                coalesced: number;
            };
            runCount: number;
            /** Format: date-time */
            lastFireAt?: string;
            /** @enum {string} */
            lastOutcome?: "started" | "completed" | "failed" | "cancelled" | "missed" | "not_started";
            runs: {
                id: string;
                /** Format: date-time */
                scheduledFor: string;
                /** Format: date-time */
                startedAt?: string;
                promptId?: string;
                /** @enum {string} */
                outcome: "started" | "completed" | "failed" | "cancelled" | "missed" | "not_started";
                message?: string;
                coalesced?: number;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        SkillInfo: {
            name: string;
            description: string;
            /** @enum {string} */
            kind: "folder" | "code";
            active: boolean;
            resources: string[];
        };
        Blueprint: {
            /** @description A short name for the procedure, e.g. "Publish the monthly newsletter". */
            title: string;
            /** @description One or two sentences: what it achieves and when to use it. */
            summary: string;
            /** @description The steps, as Markdown. */
            steps: string;
            /** @default [] */
            tags: string[];
            id: string;
            owner: string;
            usageCount: number;
            createdAt: string;
            updatedAt: string;
        };
        UserInstructions: {
            /** @description Standing instructions for the model, in every prompt of yours ('' for none) */
            instructions: string;
        };
        McpServerStatus: {
            /** @description The name the settings give the server: the prefix of its tool ids */
            name: string;
            /**
             * @description `connecting`: the first attempt is under way; `reconnecting`: the server died, failed or cannot be reached, and is tried again (see `error`, `nextAttemptAt`); `stopped`: the app is closing; `disabled`: in the settings
             * @enum {string}
             */
            state: "connecting" | "connected" | "reconnecting" | "stopped" | "disabled";
            /** @enum {string} */
            transport: "stdio" | "streamable-http" | "sse";
            /** @description The command, or the URL without its query */
            target: string;
            /** @description What the server says it is, once connected */
            server?: {
                name: string;
                version: string;
                title?: string;
            };
            /** @description Why the last attempt failed, or the connection was lost */
            error?: string;
            connectedAt?: string;
            nextAttemptAt?: string;
            /** @description Failed attempts since the server last stayed up */
            failures: number;
            /** @description The process of a stdio server */
            pid?: number;
            tools: {
                /** @description The id the model calls it by */
                id: string;
                /** @description The server's name for it */
                name: string;
                title?: string;
                readOnly: boolean;
                requiresApproval: boolean;
            }[];
            skippedTools: {
                name: string;
                reason: string;
            }[];
            /** @description Whether the server has resources (mcp.list_resources, mcp.read_resource) */
            resources: boolean;
            prompts: {
                name: string;
                description?: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Signed in; the cookie is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Sent without the X-Requested-With header */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user, the model and the plugins */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        model: {
                            id: string;
                            label: string;
                            demo: boolean;
                        };
                        /** @description The ids of the plugins the server runs (e.g. "triggers", "files"): a client shows what is there. */
                        plugins: string[];
                    };
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConversations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Conversation"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createConversation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                };
            };
        };
        responses: {
            /** @description The new conversation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        conversation: components["schemas"]["Conversation"];
                        prompts: components["schemas"]["Prompt"][];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renameConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                };
            };
        };
        responses: {
            /** @description The renamed conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The user's text for the model: at most `limits.maxInputChars` characters (UTF-16 code units; 100,000 unless configured), else a 413 `input_too_large`. */
                    input: string;
                    /**
                     * @default normal
                     * @enum {string}
                     */
                    model?: "normal" | "high";
                    /** @description Optional id of this send, chosen by the client. Sending again with the same id (a retry after a dropped connection) answers with the prompt already started instead of starting another. Ids are per user: the prompt gets an id of its own, derived from your user and this id (the `prompt.id` of the answer). */
                    id?: string;
                    /**
                     * @description The user's IANA time zone (e.g. `Europe/Paris`): the model is told the user's local time, and schedules it creates in this prompt run in this zone unless they name another.
                     * @example Europe/Paris
                     */
                    timeZone?: string;
                };
                "multipart/form-data": {
                    /** @description The user's text for the model: at most `limits.maxInputChars` characters (UTF-16 code units; 100,000 unless configured), else a 413 `input_too_large`. */
                    input?: string;
                    /**
                     * @default normal
                     * @enum {string}
                     */
                    model?: "normal" | "high";
                    /** @description Optional id of this send, chosen by the client. Sending again with the same id (a retry after a dropped connection) answers with the prompt already started instead of starting another. Ids are per user: the prompt gets an id of its own, derived from your user and this id (the `prompt.id` of the answer). */
                    id?: string;
                    /**
                     * @description The user's IANA time zone (e.g. `Europe/Paris`): the model is told the user's local time, and schedules it creates in this prompt run in this zone unless they name another.
                     * @example Europe/Paris
                     */
                    timeZone?: string;
                    /**
                     * Format: binary
                     * @description One or more files
                     */
                    files?: unknown;
                };
            };
        };
        responses: {
            /** @description The prompt, running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prompt: components["schemas"]["Prompt"];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prompt"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prompt"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPromptReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromptReport"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending approvals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["PendingApproval"][];
                        /** @description Pass as `cursor` for the next page; absent on the last one. */
                        nextCursor?: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Run the call with these arguments instead of the model's. They are validated by the tool's schema: a mismatch is a 400 and the call still waits. The record keeps both; the model is sent these. As JSON, at most `limits.maxInputChars` characters, else a 413 `input_too_large`. */
                    input?: unknown;
                };
            };
        };
        responses: {
            /** @description The prompt, resumed */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prompt: components["schemas"]["Prompt"];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The prompt, resumed */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prompt: components["schemas"]["Prompt"];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Waiting steering and follow-up messages */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["QueuedMessage"][];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The user's text for the model: at most `limits.maxInputChars` characters (UTF-16 code units; 100,000 unless configured), else a 413 `input_too_large`. */
                    input: string;
                    /**
                     * @description `steer`: the running prompt reads the message at its next round boundary (never between a tool call and its result). `queue`: the message runs as the next prompt once the current one ends, in order. On an idle conversation either runs at once.
                     * @enum {string}
                     */
                    mode: "steer" | "queue";
                    /**
                     * @default normal
                     * @enum {string}
                     */
                    model?: "normal" | "high";
                    /**
                     * @description The user's IANA time zone (e.g. `Europe/Paris`): the model is told the user's local time, and schedules it creates in this prompt run in this zone unless they name another.
                     * @example Europe/Paris
                     */
                    timeZone?: string;
                };
            };
        };
        responses: {
            /** @description The message, waiting (or the prompt it started) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: components["schemas"]["QueuedMessage"];
                        /** @description Present when the conversation was idle: the prompt the message started at once. */
                        prompt?: {
                            id: string;
                            conversationId: string;
                            userId: string;
                            /** @enum {string} */
                            model: "normal" | "high";
                            visible: boolean;
                            /** @enum {string} */
                            state: "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled";
                            input?: string;
                            output: ({
                                type: string;
                                id: string;
                                createdAt: string;
                                toolCallId?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            usage: {
                                inputTokens: number;
                                outputTokens: number;
                                cachedInputTokens: number;
                                reasoningTokens: number;
                                totalTokens: number;
                                modelCalls: number;
                                cost?: number;
                            };
                            stopReason?: {
                                code: string;
                                message: string;
                            };
                            metadata?: {
                                [key: string]: unknown;
                            };
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (`message.removed` on the event stream) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not waiting: delivered already, removed, or not yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPauses: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending pauses */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["PendingPause"][];
                        /** @description Pass as `cursor` for the next page; absent on the last one. */
                        nextCursor?: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumePause: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `continue` runs the next round (a repeated-call check counts afresh from here); `stop` ends the prompt (`stopReason.code: stopped_by_user`).
                     * @enum {string}
                     */
                    choice: "continue" | "stop";
                    budgets?: components["schemas"]["BudgetRaise"];
                };
            };
        };
        responses: {
            /** @description The prompt, resumed (or ending, for stop) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prompt: components["schemas"]["Prompt"];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tool call */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolCallDetail"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConversationTools: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tools, in the order the model is offered them */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfferedTools"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunTool"];
            };
        };
        responses: {
            /** @description The prompt, running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prompt: components["schemas"]["Prompt"];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamConversationEvents: {
        parameters: {
            query?: {
                /** @description The id of the last event received */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received */
                "last-event-id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream (it stays open) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["ConversationEvent"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many event streams open for this user (`too_many_streams`), or a rate limit (`rate_limited`): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTriggers: {
        parameters: {
            query?: {
                conversationId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Triggers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            trigger: components["schemas"]["Trigger"];
                            description: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        trigger: components["schemas"]["Trigger"];
                        description: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        trigger: components["schemas"]["Trigger"];
                        description: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSkills: {
        parameters: {
            query?: {
                conversationId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Skills */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SkillInfo"][];
                        diagnostics: {
                            file: string;
                            /**
                             * @description `error`: the skill was skipped; `warning`: it was loaded, changed (e.g. its description cut)
                             * @enum {string}
                             */
                            severity: "error" | "warning";
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    activateSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skill, active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillInfo"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBlueprints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Blueprints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Blueprint"][];
                    };
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBlueprint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The blueprint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Blueprint"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteBlueprint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadConversationFile: {
        parameters: {
            query?: {
                inline?: "0" | "1";
            };
            header?: never;
            path: {
                id: string;
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstructions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your instructions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInstructions"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setInstructions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserInstructions"];
            };
        };
        responses: {
            /** @description Your instructions, as saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInstructions"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body of a type this route does not take */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMcpServers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MCP servers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["McpServerStatus"][];
                    };
                };
            };
            /** @description Missing or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (a rate limit): wait `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
