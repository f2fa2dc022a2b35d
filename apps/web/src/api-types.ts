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
         * Sign in with a token
         * @description Sets the `tessera_session` cookie (HttpOnly, SameSite=Strict, Secure on https). Requests it signs in that change anything must send the `X-Requested-With` header.
         */
        post: operations["signIn"];
        /**
         * Sign out
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
        /**
         * Who you are, and what the server runs
         * @description Your user id, the model that answers (`demo: true` for the offline demo model) and the ids of the plugins the server runs, and the largest upload it takes: a client shows what is there.
         */
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
        /**
         * List your conversations
         * @description Your conversations, most recently changed first, `limit` at a time (50 unless given, at most 200). Follow `nextCursor` for the next page; it is absent on the last.
         */
        get: operations["listConversations"];
        put?: never;
        /**
         * Create a conversation
         * @description An empty conversation of yours. Without a `title`, the first message names it (its first words), as chat apps do. Past `limits.maxConversations` of yours (forks included): 409 `too_many_conversations`; delete some first.
         */
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
        /**
         * Read a conversation
         * @description The conversation with all its prompts, oldest first, each with every output (text, tool calls and results, widgets, files, pauses): what a client renders. Open its event stream before reading it to miss nothing that follows.
         */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        /**
         * Delete a conversation
         * @description Deletes the conversation with its prompts and files (plugins delete their own records of it, e.g. its triggers), but for the prompts and files its forks share: they stay with the forks. Its open event streams end; reconnecting, they get a 404.
         */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        /**
         * Rename a conversation
         * @description Sets its title (1 to 200 characters, trimmed); your other clients hear of it on GET /api/me/events.
         */
        patch: operations["renameConversation"];
        trace?: never;
    };
    "/api/conversations/{id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fork a conversation at a prompt
         * @description A new conversation of yours that shares this one's prompts before `promptId` (by reference: nothing is copied) and has none of its own yet: send to it to branch off, with any model, e.g. to replay from that point, or to edit and resend a message. Its `forkOf` says where it branched and the lineage it belongs to (`rootId`). It starts with this conversation's plugin state as it is now and this conversation's title (a fork at the first prompt has none: its first message names it) unless `title` is given. The prompt may be running or waiting: only the ended prompts before it are shared. This conversation is not changed, and the fork keeps its history if this one is deleted. Another user's conversation, or a prompt not in it: 404. A lineage has at most `limits.maxBranches` branches (this conversation's first one and every fork of it): one more is a 409 `too_many_branches` (delete a branch first), as one past `limits.maxConversations` of yours is a 409 `too_many_conversations`. Counted as a send (`rateLimits.promptsPerUser`).
         */
        post: operations["forkConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a conversation's branches
         * @description The conversations of its lineage: the first one (unless deleted) and every fork of it, forks of forks included, most recently changed first, `limit` at a time (50 unless given, at most 200), each with its `promptIds`: a client shows the alternatives at a turn (the branches that share the prompts before it and differ there) and opens one.
         */
        get: operations["listBranches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search your conversations
         * @description Finds words in your conversations: their titles, your messages and the answers. A text matches when it holds every word of `q` (whole words, case-insensitively, in any language: no stemming). Each hit is one matching text, with a plain-text snippet and the matched words as offsets to highlight; hits come by conversation, most recently changed first. `limit` at a time (20 unless given, at most 100); follow `nextCursor`. Only your own conversations are searched. A server whose store has no full-text search matches titles only.
         */
        get: operations["searchConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
        /**
         * Send a message
         * @description Starts a prompt on your input and answers at once (202) with it running: follow it on the conversation's event stream (open it first). As `multipart/form-data`, attach files (field `files`, once per file; text, files or both): the model reads them, and they show in the conversation. A conversation with a prompt running or waiting for you answers 409 `conversation_busy`: steer or queue the message with POST /api/conversations/{id}/messages instead, or cancel the prompt. A conversation that holds as much as a conversation may (`limits.maxConversationChars`) answers 409 `conversation_full` (the first prompt sent past it ends at once, `failed` with that stop reason): start a new conversation, or fork this one at an earlier prompt. Give an `id` of your own to retry a send safely. Counted against `rateLimits.promptsPerUser`.
         */
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
        /**
         * Read a prompt
         * @description One prompt with its state (`running`, `waiting_for_approval`, `completed`, `failed`, `cancelled`), every output in order, its token usage and, once ended, why it stopped.
         */
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
        /**
         * Cancel a prompt
         * @description Stops a prompt that runs (what it is doing is aborted) or waits for your decision (its pending calls end `cancelled`), as the UI's stop button does. A prompt already ended is a 409. The conversation's next queued message, if any, then runs.
         */
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
        /**
         * Read a prompt's run report
         * @description What a prompt's run cost and took, derived from its record on each request (as current as the prompt, running or ended): per model call its latency, time to first token, tokens and cost; per tool call its latency, result size and outcome; the totals, why it stopped, and how full the conversation's context is after it.
         */
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
         * List the calls waiting for your approval
         * @description Your tool calls waiting for approval, across all your conversations, sub-agents' included: each with its `path` from your prompt down to it (parent → child → call). A call that started and then waits on a sub-agent has `startedAt` and `waitsOn` (the child prompt): decide the child's call and it goes on by itself. A page of up to `limit` waiting prompts (50 unless given, at most 200), oldest first, with all the pending calls of each: a prompt's pending calls are never split across pages, so a page may hold more than `limit` items, or none while `nextCursor` is there. Follow `nextCursor` until it is absent to have them all. A cursor this list did not give is a 400.
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
         * Approve a tool call
         * @description The call runs once and the prompt resumes; follow it on the event stream. Send `{ "input": {...} }` to run the call with edited arguments: they are validated by the tool's schema (a mismatch is a 400 `invalid_approval_input` listing the issues, and the call still waits). The prompt records the model's `input` and the approved `editedInput`; the model is sent the approved ones.
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
        /**
         * Reject a tool call
         * @description The call does not run: the model reads that you rejected it, with your `reason` if you give one, and the prompt resumes (its answer streams on the event stream).
         */
        post: operations["rejectToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tool-calls/{id}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a tool call with its result
         * @description The call does not run: `answer` (any JSON value) is recorded as its result (`{ type: 'success', output: answer }`, the approval's `decision` `answered`), the model is sent it with a note that you gave it in the tool's place, and the prompt resumes. An answer over `limits.maxInputChars` characters as JSON is a 413 `input_too_large`, one nested deeper than 64 levels or without `answer` a 400; the call still waits.
         */
        post: operations["answerToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tool-calls/{id}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Skip a tool call
         * @description The call does not run: its result is an error `skipped` (the approval's `decision` `skipped`) telling the model you chose to skip it and to go on without it (with your `reason` if you give one; unlike a rejection, it is not told to try another way), and the prompt resumes.
         */
        post: operations["skipToolCall"];
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
        /**
         * List the waiting messages
         * @description The conversation's messages sent with `steer` or `queue` that no prompt has read yet, oldest first.
         */
        get: operations["listMessages"];
        put?: never;
        /**
         * Steer or queue a message
         * @description Unlike `sendPrompt`, never answers 409 when a prompt runs or waits for approval: with `mode: "steer"` the running prompt reads the message at its next round boundary, with `mode: "queue"` it runs as the next prompt when the current one ends (in the order sent). On an idle conversation it starts a prompt at once (`prompt` in the answer). A waiting message is announced with `message.queued` on the event stream. A conversation that holds as much as a conversation may (`limits.maxConversationChars`) answers 409 `conversation_full`, and one with 100 messages waiting 409 `too_many_messages`.
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
        /**
         * Remove a waiting message
         * @description Takes a waiting message off the list: it is never delivered. One already delivered (read by the running prompt, or run as a prompt) is a 404.
         */
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
         * List the prompts paused for you
         * @description Your prompts paused for a decision (continue or stop), across all your conversations, sub-agents' included: the model repeated the same calls, a plugin asked, or a budget was reached. Each has its `path` from your prompt down to the paused one, as approvals do. A page of up to `limit` waiting prompts (50 unless given, at most 200), oldest first, with all the pending pauses of each: a prompt's pending pauses are never split across pages, so a page may hold more than `limit` items, or none while `nextCursor` is there. Follow `nextCursor` until it is absent to have them all. A cursor this list did not give is a 400.
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
         * Continue or stop a paused prompt
         * @description `continue` runs the prompt on from where it paused, `stop` ends it. At a budget pause (`source: budget`), `continue` needs `budgets` with a larger limit for the budget reached (e.g. `{ "choice": "continue", "budgets": { "maxRounds": 50 } }`); the prompt goes on from where it stopped. `budgets` at another pause, with `stop`, with an unknown name, or not larger than what was used is a 400.
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
        /**
         * Read a tool call
         * @description One of your tool calls: the model's arguments, the edited ones it ran with (if any), its result, and the JSON Schema of its tool's arguments, which an editor needs to change them before approving.
         */
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
        /**
         * List a conversation's tools
         * @description The tools the conversation offers the model, as its next prompt would offer them (plugins may offer some only in some conversations), with each one's argument schema and whether a call waits for approval: what a form to run one yourself needs.
         */
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
         * Run a tool yourself
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
         * Follow a conversation live
         * @description Every event of the conversation as it happens: `prompt.started`, `prompt.output`, `prompt.output-updated`, `prompt.text-delta`, `prompt.approval-requested`, `prompt.resumed`, `prompt.completed`, `prompt.failed`, `prompt.cancelled`, `prompt.hook-failed`, `prompt.guardrail-tripped`, `prompt.pause-requested`, `prompt.pause-decided`, `prompt.steered`, `message.queued`, `message.removed` (the `ConversationEvent` schema: one per type), each with the event's JSON as `data` and an `id`. The stream carries too the events of the prompts that run for this conversation at any depth (a sub-agent's child prompt, its grandchild, ...: a prompt whose `metadata.parent` names a prompt of this conversation, or of a conversation below it), each unchanged: its own `conversationId` and `promptId` tell it from this conversation's own events. Only your own prompts are forwarded, from their `prompt.started` (or their end, for one that started before this server saw it) on, at most 8 conversations deep. The stream opens with `ready` (`{ "boot" }`) and sends a comment every 15 s. To resume after a dropped connection, send the last id as `Last-Event-ID` (EventSource does) or `?lastEventId=`: the missed events come first. When the server cannot replay them (another process, or too old), a `reset` event comes first: reload the conversation. A stream whose reader falls behind (more than the server's `limits.streamQueueBytes` of events wait while its connection takes nothing) is cut: reconnect with the last id received, as for any dropped connection. Each user has at most `limits.streamsPerUser` streams open at once (conversations' and their own alike): past it, 429 `too_many_streams`. A browser is authorized by its session cookie (no token in the URL); programs send a bearer token.
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
    "/api/me/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow your conversation list live
         * @description What your list of conversations needs to stay live, across all of them (the `UserEvent` schema): a conversation created (`conversation.created`, with the conversation), renamed (`conversation.renamed`, with its new title, the automatic title after a first message included) or deleted (`conversation.deleted`), whoever did it (another tab, the CLI, a plugin), and whether one waits for you (`conversation.waiting`, `waiting: true` when a prompt of it asks to approve a tool call or decide a pause, `false` when it no longer waits): list them with GET /api/approvals and GET /api/pauses. Only your own conversations, never a prompt's content. Like a conversation's stream: it opens with `ready` (`{ "boot" }`), each event has an `id`, a comment every 15 s; resume with `Last-Event-ID` or `?lastEventId=` (missed events first; `reset` when they cannot be replayed: read the list again); a reader that falls behind is cut. Load the list after `ready`, so that no change falls between the two. Created, renamed and deleted come from the process that made the change: with several processes on one database, a client following another process hears of them at its next reload; waiting states travel between processes. Each user has at most `limits.streamsPerUser` streams open at once (conversations' and their own alike): past it, 429 `too_many_streams`. A browser is authorized by its session cookie (no token in the URL); programs send a bearer token.
         */
        get: operations["streamUserEvents"];
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
        /**
         * List your triggers
         * @description Your triggers (scheduled prompts the model created with your approval), all or those of one conversation, each with its schedule in words, its next fire and its recent runs.
         */
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
        /**
         * Pause a trigger
         * @description It does not fire until it is resumed.
         */
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
        /**
         * Resume a trigger
         * @description A paused trigger fires again, at its next scheduled time.
         */
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
        /**
         * Delete a trigger
         * @description It never fires again; the prompts it started stay in their conversation.
         */
        delete: operations["deleteTrigger"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/goals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your goals
         * @description Your goals across your conversations (live and ended), newest first, in pages of `limit` (at most 200; 50 unless given). `state` keeps those in one state: a page may then hold fewer, even none, while `nextCursor` says more follow.
         */
        get: operations["listGoals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/goal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a conversation's goal
         * @description The conversation's latest goal, live or ended: its criteria with their evidence, plan, budgets and use, state (and why it is paused or ended), and the latest progress. A 404 if it has none.
         */
        get: operations["getGoal"];
        put?: never;
        /**
         * Set a goal
         * @description The agent works toward `objective` over as many prompts as it takes, until every criterion has evidence (a check tool passed, or you confirmed it), a budget is used up, or you stop it. Without `budgets`, the default budgets of the goals plugin apply (`{ prompts: 100 }` unless the server configures others). Unless `start` is `false`, its first prompt starts now (follow it on the event stream); with `false` it waits, active, for the conversation's next prompt to end. A check criterion's `toolId` must be a tool the conversation offers (not a `goal.*` one), else a 400. A conversation has one live (active or paused) goal at a time: another is a 409. A text over `limits.maxInputChars` is a 413.
         */
        post: operations["createGoal"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Revise a goal
         * @description Changes a live goal's objective, criteria, budgets or stall limit; the agent reads the revision at its next prompt. New criteria replace the list, and one whose description and verify are unchanged keeps its evidence. An ended goal is a 409.
         */
        patch: operations["reviseGoal"];
        trace?: never;
    };
    "/api/conversations/{id}/goal/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a goal
         * @description An active goal starts no more prompts until you resume it (a prompt running now finishes). `reason` is kept with the pause. A goal that is not active is a 409.
         */
        post: operations["pauseGoal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/goal/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a goal
         * @description A paused goal, or one that ran out of budget, goes on: its next prompt starts now. A goal that ran out needs `budgets` that raise the one it reached above what it used (a 400 `invalid_input` otherwise); other budgets may grow too. An active, completed or stopped goal is a 409.
         */
        post: operations["resumeGoal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/goal/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a goal
         * @description A live goal ends for good (`stopped`, with `reason` as its end reason): it starts no more prompts; a prompt running now finishes. An ended goal is a 409.
         */
        post: operations["stopGoal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/goal/criteria/{criterionId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a criterion
         * @description Records your evidence for a criterion (`note`: what you saw), usually one verified by a person (`verify.kind: human`). When every criterion then has evidence, the goal completes. An unknown criterion is a 404, an ended goal's a 409.
         */
        post: operations["confirmGoalCriterion"];
        delete?: never;
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
        /**
         * List the skills
         * @description The skills catalogue, read again from the skill folders (edits show without a restart); with `conversationId`, the skills active in that conversation are marked. `diagnostics` says which skill files were skipped or loaded with a change, and why.
         */
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
        /**
         * Activate a skill in a conversation
         * @description The skill's instructions join the model's context in this conversation from its next prompt on (the model can also activate one itself).
         */
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
        /**
         * List the blueprints
         * @description Your blueprints, then the shared ones: step-by-step procedures the model finds when a task matches one and follows. `limit` at a time (50 unless given, at most 200; a page can hold fewer). Follow `nextCursor` for the next page; it is absent on the last.
         */
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
        /**
         * Read a blueprint
         * @description One of your blueprints, or a shared one, in full: its steps, tags and how often it was used.
         */
        get: operations["getBlueprint"];
        put?: never;
        post?: never;
        /**
         * Delete a blueprint
         * @description Deletes one of your own blueprints (the shared ones are not yours to delete).
         */
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
        /**
         * Download a file
         * @description The bytes of a file of one of your conversations (one you attached, or one a tool made), with its type and name. `?inline=1` lets a browser show images, PDFs and text in place; any other type, HTML and SVG included, always downloads. A browser's link works with the session cookie: no token goes in a URL.
         */
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
        /**
         * Read your standing instructions
         * @description What the model is told in every prompt of yours ('' when you have none).
         */
        get: operations["getInstructions"];
        /**
         * Replace your standing instructions
         * @description The model reads them from its next call on, in every prompt of yours, running ones included. `''` removes them.
         */
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
        /**
         * List the MCP servers
         * @description The app's MCP servers, as configured: each one's state, transport, the tools and prompts it offers, and its last error.
         */
        get: operations["listMcpServers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the models
         * @description The app's model classes as OpenAI models: `normal` and `high` (the server maps each to its configured model). Give one as the `model` of a request.
         */
        get: operations["openaiListModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a chat completion (OpenAI)
         * @description The last user message runs as a prompt; with `stream: true` the answer streams. For OpenAI clients (the `openai` SDKs, Open WebUI, editors): the API key is your Tessera token, the model a model class. The messages before the last name the conversation it continues (or the `X-Tessera-Conversation` header does); the app's tools run on the server and the answer is text. When a tool call needs approval the answer ends by asking, and a reply of `approve` or `reject` decides it. See the server's README.
         */
        post: operations["openaiCreateChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a response (OpenAI)
         * @description The new user message runs as a prompt; with `stream: true` its events stream. For OpenAI clients: the API key is your Tessera token, the model a model class. `previous_response_id` (or the `X-Tessera-Conversation` header, or earlier messages in `input` as Chat Completions matches them) names the conversation it continues; the app's tools run on the server and the answer is text. When a tool call needs approval the answer ends by asking, and a reply of `approve` or `reject` decides it. `instructions` are ignored and every response is stored. See the server's README.
         */
        post: operations["openaiCreateResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai-sdk/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat (AI SDK UI message stream)
         * @description For the AI SDK's `useChat` with `DefaultChatTransport({ api: '/api/ai-sdk/chat', headers: { Authorization: 'Bearer <token>' } })`. The chat `id` is your Tessera conversation (made on its first message); the last message is what is new: the user's text runs as a prompt, or the assistant's message with tool parts in `approval-responded` state (`addToolApprovalResponse`) approves or rejects the call that waits. The answer streams as UI message chunks (text, reasoning, dynamic tool parts with approval requests, `data-<type>` parts for widgets and plugins' outputs, file links) and ends with `finish`, its metadata the conversation, prompt, state and usage. See the server's README.
         */
        post: operations["aiSdkChat"];
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
            forkOf?: {
                conversationId: string;
                promptId: string;
                rootId: string;
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
        SearchHit: {
            conversationId: string;
            /** @description The prompt whose input or answer matched. */
            promptId?: string;
            /** @description The conversation's title. */
            title?: string;
            /** @enum {string} */
            field: "title" | "input" | "output";
            snippet: {
                /** @description Plain text around the first match (never markup). */
                text: string;
                /** @description The matched words, as [start, end) offsets into `text` (UTF-16 code units). */
                highlights: [
                    number,
                    number
                ][];
            };
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
            subAgents?: {
                runs: {
                    toolCallId: string;
                    agent: string;
                    conversationId: string;
                    promptId: string;
                    /** @enum {string} */
                    state: "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled";
                    usage?: {
                        modelCalls: number;
                        inputTokens: number;
                        outputTokens: number;
                        cachedInputTokens: number;
                        reasoningTokens: number;
                        cost?: number;
                    };
                }[];
                totals: {
                    modelCalls: number;
                    inputTokens: number;
                    outputTokens: number;
                    cachedInputTokens: number;
                    reasoningTokens: number;
                    cost?: number;
                };
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
            /** @description Present when the call started and then asked to wait (a suspended call, e.g. an agent waiting on its sub-agent): there is nothing to approve before it runs; approving runs it again, which goes on once what it waits for is done. */
            startedAt?: string;
            /** @description On a suspended call: the prompt it started and waits on (a sub-agent's, whose own waiting call is listed too), linked back to this call by its `metadata.parent`. Decide that prompt's call, and this one goes on by itself. */
            waitsOn?: {
                conversationId: string;
                promptId: string;
            };
            /** @description Where the call is, from the top: your prompt, each sub-agent's prompt started by a call of the one above, down to this call's own prompt (the last step, whose `toolCallId` is this call). One step for a call of your own prompt. At most 8 steps: a longer chain starts at the eighth prompt above the call; a link to a prompt that is missing or not yours ends the path there. */
            path: components["schemas"]["ApprovalPathStep"][];
        };
        /** @description One prompt on the way from your prompt down to a waiting call, and the call it goes through. */
        ApprovalPathStep: {
            conversationId: string;
            promptId: string;
            /** @description The call of this prompt the path goes through: the one that started the next step's prompt, or on an approval's last step the waiting call itself. Absent when code started the next prompt on this one's behalf, and on a pause's last step. */
            toolCallId?: string;
            /** @description That call's tool, e.g. `agent.researcher`. */
            toolId?: string;
            /** @description The agent this prompt runs as (its `metadata.agent`); absent on the user's own prompt. */
            agent?: string;
            /** @description The prompt's conversation's title, when it has one. */
            title?: string;
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
            /** @description Where the paused prompt is, from the top: your prompt, each sub-agent's prompt started by a call of the one above, down to the paused prompt (the last step, without a call). One step for your own prompt; at most 8, as an approval's `path`. */
            path: components["schemas"]["ApprovalPathStep"][];
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
        /** @description One event's `data`; the SSE `event` field is its `type`. */
        UserEvent: components["schemas"]["UserEvent_conversation_created"] | components["schemas"]["UserEvent_conversation_renamed"] | components["schemas"]["UserEvent_conversation_deleted"] | components["schemas"]["UserEvent_conversation_waiting"];
        /** @description A conversation of yours was created (by you anywhere: another tab, the CLI, a plugin). */
        UserEvent_conversation_created: {
            conversation: components["schemas"]["Conversation"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.created";
        };
        /** @description A conversation of yours has a new title (renamed, or named after its first message). */
        UserEvent_conversation_renamed: {
            conversationId: string;
            title: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.renamed";
        };
        /** @description A conversation of yours was deleted. */
        UserEvent_conversation_deleted: {
            conversationId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.deleted";
        };
        /** @description A prompt of a conversation of yours waits for you, or no longer does. */
        UserEvent_conversation_waiting: {
            conversationId: string;
            promptId: string;
            /** @description True: the prompt waits for you (a tool call to approve, or a pause to decide; see GET /api/approvals and GET /api/pauses). False: it no longer waits (decided, resumed or ended). */
            waiting: boolean;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.waiting";
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
        /** @description An objective the agent works toward over as many prompts as it takes, until each criterion has evidence, a budget is used up, or you stop it. */
        Goal: {
            id: string;
            conversationId: string;
            userId: string;
            objective: string;
            criteria: {
                /** @description `c1`, `c2`, … in order. */
                id: string;
                description: string;
                /** @description `check`: the tool `toolId` checks it (its result is the evidence); `human`: a person confirms it (`confirmGoalCriterion`). */
                verify: {
                    /** @enum {string} */
                    kind: "check";
                    toolId: string;
                } | {
                    /** @enum {string} */
                    kind: "human";
                };
                /** @description Set once it is verified; a later failing check does not remove it. */
                evidence?: {
                    at: string;
                    /** @enum {string} */
                    by: "check" | "human";
                    /** @description The check's result as text, or the person's note (≤ 2,000 characters). */
                    summary: string;
                    promptId?: string;
                    toolCallId?: string;
                    /** @description The user who confirmed it (`by: human`). */
                    decidedBy?: string;
                };
                lastCheck?: {
                    at: string;
                    passed: boolean;
                    summary: string;
                };
            }[];
            budgets: components["schemas"]["GoalBudgets"];
            used: {
                modelCalls: number;
                totalTokens: number;
                cost: number;
                prompts: number;
                wallMs: number;
            };
            /** @description Prompts in a row without progress before the goal pauses (`stall`). */
            stallLimit: number;
            stalls: number;
            state: components["schemas"]["GoalState"];
            /** @description Why a paused goal waits: `user` (you paused it), `approval` (a call of `promptId` waits for your decision), `doom_loop`, `blocker`, `stall`, `waiting` (until `wakeAt`). */
            pause?: {
                /** @enum {string} */
                kind: "user" | "approval" | "doom_loop" | "blocker" | "stall" | "waiting";
                reason: string;
                promptId?: string;
                wakeAt?: string;
            };
            /** @description Why it completed, stopped or ran out of budget. */
            endReason?: string;
            plan?: string;
            /** @description The latest 50 entries, oldest first. */
            progress: {
                at: string;
                promptId?: string;
                /** @enum {string} */
                kind: "plan" | "progress" | "evidence" | "check_failed" | "stall" | "paused" | "resumed" | "revised" | "budget" | "completed" | "stopped";
                text: string;
            }[];
            turn: number;
            version: number;
            createdAt: string;
            updatedAt: string;
        };
        /** @description Limits on what the goal may use over all its prompts (each optional): model calls, tokens, cost, prompts and wall-clock milliseconds. Reaching one ends it as `budget_exhausted`. Given, they replace the goal's budgets as a whole. */
        GoalBudgets: {
            modelCalls?: number;
            totalTokens?: number;
            cost?: number;
            prompts?: number;
            wallMs?: number;
        };
        /**
         * @description `active`: it runs prompts toward its objective; `paused`: waiting (for you, an approval, a blocker, a stall, or a time); `completed`: every criterion has evidence; `stopped`: you (or the agent) ended it; `budget_exhausted`: it used a budget up (resume it with larger budgets).
         * @enum {string}
         */
        GoalState: "active" | "paused" | "completed" | "stopped" | "budget_exhausted";
        CreateGoal: {
            /** @description What the agent works toward (the model reads it): at most 4,000 characters. */
            objective: string;
            /** @description How to tell it is done: 1 to 20 criteria, each checked by a tool or confirmed by you. */
            criteria: {
                description: string;
                /** @description How it is verified: by a check tool, or by you (the default, `human`). */
                verify?: {
                    /** @enum {string} */
                    kind: "check";
                    toolId: string;
                } | {
                    /** @enum {string} */
                    kind: "human";
                };
            }[];
            budgets?: components["schemas"]["GoalBudgets"];
            /** @description Prompts in a row without progress before it pauses (1–20; default 3). */
            stallLimit?: number;
            /** @description Start its first prompt now (default `true`); `false` creates it active without running. */
            start?: boolean;
        };
        /** @description What changes (at least one). New criteria replace the list: a criterion whose description and verify are unchanged keeps its evidence. */
        ReviseGoal: {
            /** @description What the agent works toward (the model reads it): at most 4,000 characters. */
            objective?: string;
            /** @description How to tell it is done: 1 to 20 criteria, each checked by a tool or confirmed by you. */
            criteria?: {
                description: string;
                /** @description How it is verified: by a check tool, or by you (the default, `human`). */
                verify?: {
                    /** @enum {string} */
                    kind: "check";
                    toolId: string;
                } | {
                    /** @enum {string} */
                    kind: "human";
                };
            }[];
            budgets?: components["schemas"]["GoalBudgets"];
            /** @description Prompts in a row without progress before it pauses (1–20; default 3). */
            stallLimit?: number;
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
        ModelList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Model"][];
        };
        Model: {
            id: string;
            /** @enum {string} */
            object: "model";
            created: number;
            owned_by: string;
        };
        /** @description OpenAI's error shape: what its SDKs raise as typed errors. */
        OpenAIError: {
            error: {
                message: string;
                type: string;
                param: string | null;
                code: string | null;
            };
        };
        ChatCompletion: {
            id: string;
            /** @enum {string} */
            object: "chat.completion";
            choices: unknown[];
        } & {
            [key: string]: unknown;
        };
        ChatCompletionRequest: {
            /** @description One of the app's model classes: `normal` or `high`. */
            model: string;
            /** @description The conversation as the client has it. Only the last message, which must be the user's, is new: the earlier ones name the conversation it continues. */
            messages: ({
                /** @enum {string} */
                role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
                content?: string | ({
                    type: string;
                    text?: string;
                } & {
                    [key: string]: unknown;
                })[] | null;
            } & {
                [key: string]: unknown;
            })[];
            stream?: boolean | null;
            stream_options?: ({
                include_usage?: boolean | null;
            } & {
                [key: string]: unknown;
            }) | null;
            /**
             * @description One answer per request.
             * @enum {number|null}
             */
            n?: 1 | null;
        } & {
            [key: string]: unknown;
        };
        Response: {
            id: string;
            /** @enum {string} */
            object: "response";
            output: unknown[];
        } & {
            [key: string]: unknown;
        };
        ResponseRequest: {
            /** @description One of the app's model classes: `normal` or `high`. */
            model: string;
            /** @description The new user message, or a list whose last message is the user's new one. */
            input: string | ({
                type?: string;
                role?: string;
                content?: string | ({
                    type: string;
                    text?: string;
                } & {
                    [key: string]: unknown;
                })[] | null;
            } & {
                [key: string]: unknown;
            })[];
            /** @description A response of yours (or a Tessera prompt id): continues its conversation. */
            previous_response_id?: string | null;
            /** @description Ignored: the app's instructions and your settings apply. */
            instructions?: string | null;
            stream?: boolean | null;
            /** @description Ignored: Tessera keeps every conversation (`store` is `true` in the response). */
            store?: boolean | null;
        } & {
            [key: string]: unknown;
        };
        /** @description The body the AI SDK's `DefaultChatTransport` sends. */
        AiSdkChatRequest: {
            /** @description The chat's id (`useChat`'s `id`, any string the client chose): your chat of that id is one Tessera conversation. An id of one of your conversations continues it. */
            id: string;
            messages: ({
                id: string;
                /** @enum {string} */
                role: "system" | "user" | "assistant";
                parts: ({
                    type: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            /** @enum {string} */
            trigger: "submit-message" | "regenerate-message";
            messageId?: string;
            /**
             * @description The model class (`normal` or `high`): send it in the transport's `body`.
             * @enum {string}
             */
            model?: "normal" | "high";
        } & {
            [key: string]: unknown;
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
                /**
                 * @example {
                 *       "token": "the-token-of-your-local-token-file"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "userId": "ada"
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "userId": "ada",
                     *       "model": {
                     *         "id": "demo",
                     *         "label": "Demo model (offline, rule-based)",
                     *         "demo": true
                     *       },
                     *       "plugins": [
                     *         "widgets",
                     *         "files",
                     *         "triggers",
                     *         "skills",
                     *         "blueprints",
                     *         "instructions",
                     *         "demo"
                     *       ],
                     *       "limits": {
                     *         "maxUploadBytes": 20000000
                     *       }
                     *     }
                     */
                    "application/json": {
                        userId: string;
                        model: {
                            id: string;
                            label: string;
                            demo: boolean;
                        };
                        /** @description The ids of the plugins the server runs (e.g. "triggers", "files"): a client shows what is there. */
                        plugins: string[];
                        limits: {
                            /** @description The largest body of a prompt sent with files (`limits.maxUploadBytes`): larger is a 413, so a client refuses such a file when it is chosen. */
                            maxUploadBytes: number;
                        };
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "conv_IxS5ZwE2g8Al0bN2",
                     *           "userId": "ada",
                     *           "title": "Weather in Rome",
                     *           "promptIds": [
                     *             "prm_rdWWhAF2Yn4nXxVq"
                     *           ],
                     *           "pluginState": {},
                     *           "createdAt": "2026-11-27T05:49:27.285Z",
                     *           "updatedAt": "2026-11-27T05:49:28.280Z"
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "title": "Weather in Rome"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "id": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "title": "Weather in Rome",
                     *       "promptIds": [],
                     *       "pluginState": {},
                     *       "createdAt": "2026-11-27T05:49:27.285Z",
                     *       "updatedAt": "2026-11-27T05:49:28.280Z"
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "conversation": {
                     *         "id": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "title": "Weather in Rome",
                     *         "promptIds": [
                     *           "prm_rdWWhAF2Yn4nXxVq"
                     *         ],
                     *         "pluginState": {},
                     *         "createdAt": "2026-11-27T05:49:27.285Z",
                     *         "updatedAt": "2026-11-27T05:49:28.280Z"
                     *       },
                     *       "prompts": [
                     *         {
                     *           "id": "prm_rdWWhAF2Yn4nXxVq",
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "userId": "ada",
                     *           "model": "normal",
                     *           "visible": true,
                     *           "state": "completed",
                     *           "input": "weather in Rome",
                     *           "output": [
                     *             {
                     *               "id": "call_epfQjm00ROYYVi1r",
                     *               "type": "tool",
                     *               "toolId": "demo.weather",
                     *               "callId": "demo_mwykab33_182xvq",
                     *               "input": {
                     *                 "city": "Rome"
                     *               },
                     *               "result": {
                     *                 "type": "success",
                     *                 "output": {
                     *                   "city": "Rome",
                     *                   "now": 15,
                     *                   "high": 18,
                     *                   "low": 9
                     *                 }
                     *               },
                     *               "responseId": "rsp_2wfeZdq5ke8Bp-ip",
                     *               "createdAt": "2026-11-27T05:49:28.115Z",
                     *               "startedAt": "2026-11-27T05:49:28.116Z",
                     *               "endedAt": "2026-11-27T05:49:28.260Z"
                     *             },
                     *             {
                     *               "id": "out__PsgyIcbItpKv8m0",
                     *               "type": "text",
                     *               "text": "It is 15 °C in Rome now, between 9 °C and 18 °C today.",
                     *               "responseId": "rsp_na9VNIoPscPmu2Jv",
                     *               "createdAt": "2026-11-27T05:49:28.273Z"
                     *             }
                     *           ],
                     *           "usage": {
                     *             "inputTokens": 105,
                     *             "outputTokens": 40,
                     *             "cachedInputTokens": 0,
                     *             "reasoningTokens": 0,
                     *             "totalTokens": 145,
                     *             "modelCalls": 2
                     *           },
                     *           "createdAt": "2026-11-27T05:49:27.673Z",
                     *           "updatedAt": "2026-11-27T05:49:28.280Z"
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "title": "Trip to Rome"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "id": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "title": "Trip to Rome",
                     *       "promptIds": [
                     *         "prm_rdWWhAF2Yn4nXxVq"
                     *       ],
                     *       "pluginState": {},
                     *       "createdAt": "2026-11-27T05:49:27.285Z",
                     *       "updatedAt": "2026-11-27T05:49:28.280Z"
                     *     }
                     */
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
    forkConversation: {
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
                /**
                 * @example {
                 *       "promptId": "prm_Q2nV8cLx0TfRk4Jd"
                 *     }
                 */
                "application/json": {
                    /** @description The prompt of the conversation to branch at: the fork shares the prompts before it (never it, nor those after). */
                    promptId: string;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description The fork */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "conv_Fk3bQ9xLm2Rt7Vw1",
                     *       "userId": "ada",
                     *       "title": "Weather in Rome",
                     *       "promptIds": [
                     *         "prm_rdWWhAF2Yn4nXxVq"
                     *       ],
                     *       "pluginState": {},
                     *       "createdAt": "2026-11-27T06:02:11.007Z",
                     *       "updatedAt": "2026-11-27T06:02:11.007Z",
                     *       "forkOf": {
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "promptId": "prm_Q2nV8cLx0TfRk4Jd",
                     *         "rootId": "conv_IxS5ZwE2g8Al0bN2"
                     *       }
                     *     }
                     */
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
    listBranches: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the branches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "conv_Fk3bQ9xLm2Rt7Vw1",
                     *           "userId": "ada",
                     *           "title": "Weather in Rome",
                     *           "promptIds": [
                     *             "prm_rdWWhAF2Yn4nXxVq"
                     *           ],
                     *           "pluginState": {},
                     *           "createdAt": "2026-11-27T06:02:11.007Z",
                     *           "updatedAt": "2026-11-27T06:02:11.007Z",
                     *           "forkOf": {
                     *             "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *             "promptId": "prm_Q2nV8cLx0TfRk4Jd",
                     *             "rootId": "conv_IxS5ZwE2g8Al0bN2"
                     *           }
                     *         },
                     *         {
                     *           "id": "conv_IxS5ZwE2g8Al0bN2",
                     *           "userId": "ada",
                     *           "title": "Weather in Rome",
                     *           "promptIds": [
                     *             "prm_rdWWhAF2Yn4nXxVq"
                     *           ],
                     *           "pluginState": {},
                     *           "createdAt": "2026-11-27T05:49:27.285Z",
                     *           "updatedAt": "2026-11-27T05:49:28.280Z"
                     *         }
                     *       ]
                     *     }
                     */
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
    searchConversations: {
        parameters: {
            query: {
                /** @description What to find: words (letters and digits), all of which a text must hold, case-insensitively. At most 200 characters and 16 words (a 400 beyond); anything else in it is ignored. */
                q: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of hits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "title": "Weather in Rome",
                     *           "field": "output",
                     *           "snippet": {
                     *             "text": "The capital of Italy is Rome, on the Tiber.",
                     *             "highlights": [
                     *               [
                     *                 24,
                     *                 28
                     *               ]
                     *             ]
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        items: components["schemas"]["SearchHit"][];
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
                /**
                 * @example {
                 *       "input": "weather in Rome",
                 *       "model": "normal",
                 *       "timeZone": "Europe/Rome"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
            /** @description The body is over `limits.maxBodyBytes` (`payload_too_large`), or a text for the model in it over `limits.maxInputChars` (`input_too_large`), or an attached file over the file limit (`file_too_large`) or past your storage quota (`storage_quota_exceeded`: delete files or conversations to free space) */
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
                    /**
                     * @example {
                     *       "id": "prm_rdWWhAF2Yn4nXxVq",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "model": "normal",
                     *       "visible": true,
                     *       "state": "completed",
                     *       "input": "weather in Rome",
                     *       "output": [
                     *         {
                     *           "id": "call_epfQjm00ROYYVi1r",
                     *           "type": "tool",
                     *           "toolId": "demo.weather",
                     *           "callId": "demo_mwykab33_182xvq",
                     *           "input": {
                     *             "city": "Rome"
                     *           },
                     *           "result": {
                     *             "type": "success",
                     *             "output": {
                     *               "city": "Rome",
                     *               "now": 15,
                     *               "high": 18,
                     *               "low": 9
                     *             }
                     *           },
                     *           "responseId": "rsp_2wfeZdq5ke8Bp-ip",
                     *           "createdAt": "2026-11-27T05:49:28.115Z",
                     *           "startedAt": "2026-11-27T05:49:28.116Z",
                     *           "endedAt": "2026-11-27T05:49:28.260Z"
                     *         },
                     *         {
                     *           "id": "out__PsgyIcbItpKv8m0",
                     *           "type": "text",
                     *           "text": "It is 15 °C in Rome now, between 9 °C and 18 °C today.",
                     *           "responseId": "rsp_na9VNIoPscPmu2Jv",
                     *           "createdAt": "2026-11-27T05:49:28.273Z"
                     *         }
                     *       ],
                     *       "usage": {
                     *         "inputTokens": 105,
                     *         "outputTokens": 40,
                     *         "cachedInputTokens": 0,
                     *         "reasoningTokens": 0,
                     *         "totalTokens": 145,
                     *         "modelCalls": 2
                     *       },
                     *       "createdAt": "2026-11-27T05:49:27.673Z",
                     *       "updatedAt": "2026-11-27T05:49:28.280Z"
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "id": "prm_rdWWhAF2Yn4nXxVq",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "model": "normal",
                     *       "visible": true,
                     *       "state": "cancelled",
                     *       "input": "weather in Rome",
                     *       "output": [
                     *         {
                     *           "id": "call_epfQjm00ROYYVi1r",
                     *           "type": "tool",
                     *           "toolId": "demo.weather",
                     *           "callId": "demo_mwykab33_182xvq",
                     *           "input": {
                     *             "city": "Rome"
                     *           },
                     *           "result": {
                     *             "type": "success",
                     *             "output": {
                     *               "city": "Rome",
                     *               "now": 15,
                     *               "high": 18,
                     *               "low": 9
                     *             }
                     *           },
                     *           "responseId": "rsp_2wfeZdq5ke8Bp-ip",
                     *           "createdAt": "2026-11-27T05:49:28.115Z",
                     *           "startedAt": "2026-11-27T05:49:28.116Z",
                     *           "endedAt": "2026-11-27T05:49:28.260Z"
                     *         }
                     *       ],
                     *       "usage": {
                     *         "inputTokens": 105,
                     *         "outputTokens": 40,
                     *         "cachedInputTokens": 0,
                     *         "reasoningTokens": 0,
                     *         "totalTokens": 145,
                     *         "modelCalls": 2
                     *       },
                     *       "createdAt": "2026-11-27T05:49:27.673Z",
                     *       "updatedAt": "2026-11-27T05:49:28.280Z",
                     *       "stopReason": {
                     *         "code": "cancelled",
                     *         "message": "Cancelled by the user."
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *       "state": "completed",
                     *       "startedAt": "2026-11-27T05:49:27.673Z",
                     *       "endedAt": "2026-11-27T05:49:28.280Z",
                     *       "totalMs": 607,
                     *       "stop": "completed",
                     *       "modelCalls": [
                     *         {
                     *           "responseId": "rsp_2wfeZdq5ke8Bp-ip",
                     *           "model": "gpt-5-mini",
                     *           "startedAt": "2026-11-27T05:49:27.990Z",
                     *           "endedAt": "2026-11-27T05:49:28.116Z",
                     *           "latencyMs": 126,
                     *           "timeToFirstTokenMs": 125,
                     *           "inputTokens": 16,
                     *           "outputTokens": 20,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "finishReason": "tool_calls",
                     *           "toolCalls": 1
                     *         }
                     *       ],
                     *       "toolCalls": [
                     *         {
                     *           "id": "call_epfQjm00ROYYVi1r",
                     *           "callId": "demo_mwykab33_182xvq",
                     *           "toolId": "demo.weather",
                     *           "responseId": "rsp_2wfeZdq5ke8Bp-ip",
                     *           "startedAt": "2026-11-27T05:49:28.116Z",
                     *           "endedAt": "2026-11-27T05:49:28.260Z",
                     *           "latencyMs": 144,
                     *           "resultBytes": 54,
                     *           "outcome": "success"
                     *         }
                     *       ],
                     *       "totals": {
                     *         "modelCalls": 1,
                     *         "toolCalls": 1,
                     *         "failedToolCalls": 0,
                     *         "inputTokens": 16,
                     *         "outputTokens": 20,
                     *         "cachedInputTokens": 0,
                     *         "reasoningTokens": 0,
                     *         "modelMs": 126,
                     *         "toolMs": 144
                     *       },
                     *       "context": {
                     *         "tokens": 109,
                     *         "reported": 109,
                     *         "estimated": 0,
                     *         "budget": 100000
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "toolCallId": "call_Ag3ntB00k3rCa11",
                     *           "promptId": "prm_Tr1pPl4nn1ngQ8sZ",
                     *           "conversationId": "conv_Tr1pPl4nn1ngQ8sZ",
                     *           "toolId": "agent.booker",
                     *           "input": {
                     *             "task": "Pay the deposit for the Rome flat"
                     *           },
                     *           "reason": "Agent 'booker' waits for your decision in its conversation: demo.transfer: Transfers over $100 need your approval: $500 to Ada.",
                     *           "createdAt": "2026-11-27T05:49:21.310Z",
                     *           "startedAt": "2026-11-27T05:49:21.402Z",
                     *           "waitsOn": {
                     *             "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq"
                     *           },
                     *           "path": [
                     *             {
                     *               "conversationId": "conv_Tr1pPl4nn1ngQ8sZ",
                     *               "promptId": "prm_Tr1pPl4nn1ngQ8sZ",
                     *               "toolCallId": "call_Ag3ntB00k3rCa11",
                     *               "toolId": "agent.booker",
                     *               "title": "Trip planning"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "toolCallId": "call_9Fa9BeimrYIal8Hi",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "toolId": "demo.transfer",
                     *           "input": {
                     *             "amount": 500,
                     *             "to": "Ada"
                     *           },
                     *           "reason": "Transfers over $100 need your approval: $500 to Ada.",
                     *           "createdAt": "2026-11-27T05:49:29.998Z",
                     *           "path": [
                     *             {
                     *               "conversationId": "conv_Tr1pPl4nn1ngQ8sZ",
                     *               "promptId": "prm_Tr1pPl4nn1ngQ8sZ",
                     *               "toolCallId": "call_Ag3ntB00k3rCa11",
                     *               "toolId": "agent.booker",
                     *               "title": "Trip planning"
                     *             },
                     *             {
                     *               "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *               "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *               "toolCallId": "call_9Fa9BeimrYIal8Hi",
                     *               "toolId": "demo.transfer",
                     *               "agent": "booker",
                     *               "title": "booker: Pay the deposit for the Rome flat"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "input": {
                 *         "amount": 50,
                 *         "to": "Ada"
                 *       }
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
                /**
                 * @example {
                 *       "reason": "Not this month."
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
    answerToolCall: {
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
                /**
                 * @example {
                 *       "answer": {
                 *         "balance": 120,
                 *         "currency": "EUR"
                 *       },
                 *       "reason": "I checked it myself."
                 *     }
                 */
                "application/json": {
                    /** @description The call's result, in the tool's place: any JSON value (`null` too). The tool does not run; the call's result is `{ type: 'success', output: answer }` and the model is sent it with a note that you gave it. As JSON, at most `limits.maxInputChars` characters (else a 413 `input_too_large`) and nested at most 64 levels (else a 400). */
                    answer: unknown;
                    /** @description Why, in your words: recorded as the approval's `comment` and read by the model. */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
    skipToolCall: {
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
                /**
                 * @example {
                 *       "reason": "Not needed today."
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "msg_Zi_xB83cUmQSwe2B",
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "userId": "ada",
                     *           "mode": "queue",
                     *           "input": "then tell Ada",
                     *           "model": "normal",
                     *           "createdAt": "2026-11-27T05:49:31.293Z"
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "input": "then tell Ada",
                 *       "mode": "queue"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "message": {
                     *         "id": "msg_Zi_xB83cUmQSwe2B",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "mode": "queue",
                     *         "input": "then tell Ada",
                     *         "model": "normal",
                     *         "createdAt": "2026-11-27T05:49:31.293Z"
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "pauseId": "out_hNdeOHwgfchnG172",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "source": "budget",
                     *           "budget": {
                     *             "name": "maxRounds",
                     *             "limit": 25,
                     *             "used": 25
                     *           },
                     *           "reason": "The prompt reached its maxRounds budget (25).",
                     *           "createdAt": "2026-11-27T05:52:10.120Z",
                     *           "path": [
                     *             {
                     *               "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *               "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *               "title": "Weather in Rome"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "choice": "continue",
                 *       "budgets": {
                 *         "maxRounds": 50
                 *       }
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "input": "weather in Rome",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z"
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "toolCallId": "call_9Fa9BeimrYIal8Hi",
                     *       "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *       "toolId": "demo.transfer",
                     *       "input": {
                     *         "amount": 500,
                     *         "to": "Ada"
                     *       },
                     *       "result": {
                     *         "type": "pending",
                     *         "reason": "Transfers over $100 need your approval: $500 to Ada."
                     *       },
                     *       "inputSchema": {
                     *         "type": "object",
                     *         "properties": {
                     *           "amount": {
                     *             "type": "number",
                     *             "exclusiveMinimum": 0
                     *           },
                     *           "to": {
                     *             "type": "string",
                     *             "minLength": 1
                     *           }
                     *         },
                     *         "required": [
                     *           "amount",
                     *           "to"
                     *         ]
                     *       }
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "demo.transfer",
                     *           "description": "Transfer money (pretend), to show approval that depends on the input.",
                     *           "plugin": "demo",
                     *           "inputSchema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "amount": {
                     *                 "type": "number",
                     *                 "exclusiveMinimum": 0
                     *               },
                     *               "to": {
                     *                 "type": "string",
                     *                 "minLength": 1
                     *               }
                     *             },
                     *             "required": [
                     *               "amount",
                     *               "to"
                     *             ]
                     *           },
                     *           "approval": "depends",
                     *           "readOnly": false
                     *         }
                     *       ]
                     *     }
                     */
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
                /**
                 * @example {
                 *       "toolId": "demo.weather",
                 *       "input": {
                 *         "city": "Rome"
                 *       },
                 *       "timeZone": "Europe/Rome"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "prompt": {
                     *         "id": "prm_rdWWhAF2Yn4nXxVq",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "userId": "ada",
                     *         "model": "normal",
                     *         "visible": true,
                     *         "state": "running",
                     *         "output": [],
                     *         "usage": {
                     *           "inputTokens": 0,
                     *           "outputTokens": 0,
                     *           "cachedInputTokens": 0,
                     *           "reasoningTokens": 0,
                     *           "totalTokens": 0,
                     *           "modelCalls": 0
                     *         },
                     *         "createdAt": "2026-11-27T05:49:27.673Z",
                     *         "updatedAt": "2026-11-27T05:49:27.673Z",
                     *         "metadata": {
                     *           "toolRun": true
                     *         }
                     *       }
                     *     }
                     */
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
    streamUserEvents: {
        parameters: {
            query?: {
                /** @description The id of the last event received */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received */
                "last-event-id"?: string;
            };
            path?: never;
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
                    "text/event-stream": components["schemas"]["UserEvent"];
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "trigger": {
                     *             "id": "trg_Qw2c8mYx1LrT0aZp",
                     *             "userId": "ada",
                     *             "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *             "name": "Sales report",
                     *             "instruction": "Make the weekly sales report.",
                     *             "schedule": {
                     *               "kind": "cron",
                     *               "expression": "0 9 * * 1",
                     *               "timeZone": "Europe/Rome"
                     *             },
                     *             "missedFires": "skip",
                     *             "status": "active",
                     *             "nextFireAt": "2026-11-30T08:00:00.000Z",
                     *             "runCount": 0,
                     *             "runs": [],
                     *             "createdAt": "2026-11-27T05:55:00.000Z",
                     *             "updatedAt": "2026-11-27T05:55:00.000Z"
                     *           },
                     *           "description": "Every Monday at 09:00 (Europe/Rome)"
                     *         }
                     *       ]
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "trigger": {
                     *         "id": "trg_Qw2c8mYx1LrT0aZp",
                     *         "userId": "ada",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "name": "Sales report",
                     *         "instruction": "Make the weekly sales report.",
                     *         "schedule": {
                     *           "kind": "cron",
                     *           "expression": "0 9 * * 1",
                     *           "timeZone": "Europe/Rome"
                     *         },
                     *         "missedFires": "skip",
                     *         "status": "paused",
                     *         "nextFireAt": "2026-11-30T08:00:00.000Z",
                     *         "runCount": 0,
                     *         "runs": [],
                     *         "createdAt": "2026-11-27T05:55:00.000Z",
                     *         "updatedAt": "2026-11-27T05:55:00.000Z"
                     *       },
                     *       "description": "Every Monday at 09:00 (Europe/Rome)"
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "trigger": {
                     *         "id": "trg_Qw2c8mYx1LrT0aZp",
                     *         "userId": "ada",
                     *         "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *         "name": "Sales report",
                     *         "instruction": "Make the weekly sales report.",
                     *         "schedule": {
                     *           "kind": "cron",
                     *           "expression": "0 9 * * 1",
                     *           "timeZone": "Europe/Rome"
                     *         },
                     *         "missedFires": "skip",
                     *         "status": "active",
                     *         "nextFireAt": "2026-11-30T08:00:00.000Z",
                     *         "runCount": 0,
                     *         "runs": [],
                     *         "createdAt": "2026-11-27T05:55:00.000Z",
                     *         "updatedAt": "2026-11-27T05:55:00.000Z"
                     *       },
                     *       "description": "Every Monday at 09:00 (Europe/Rome)"
                     *     }
                     */
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
    listGoals: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description Only the goals in this state. */
                state?: "active" | "paused" | "completed" | "stopped" | "budget_exhausted";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Goals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *           "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *           "userId": "ada",
                     *           "objective": "Get the test suite of the billing service green.",
                     *           "criteria": [
                     *             {
                     *               "id": "c1",
                     *               "description": "Every test of the billing service passes.",
                     *               "verify": {
                     *                 "kind": "check",
                     *                 "toolId": "tests.run"
                     *               },
                     *               "evidence": {
                     *                 "at": "2026-11-27T06:20:14.512Z",
                     *                 "by": "check",
                     *                 "summary": "128 passed, 0 failed",
                     *                 "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *                 "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *               },
                     *               "lastCheck": {
                     *                 "at": "2026-11-27T06:20:14.512Z",
                     *                 "passed": true,
                     *                 "summary": "128 passed, 0 failed"
                     *               }
                     *             },
                     *             {
                     *               "id": "c2",
                     *               "description": "Ada has read the fix and agrees with it.",
                     *               "verify": {
                     *                 "kind": "human"
                     *               }
                     *             }
                     *           ],
                     *           "budgets": {
                     *             "modelCalls": 40,
                     *             "prompts": 10
                     *           },
                     *           "used": {
                     *             "modelCalls": 12,
                     *             "totalTokens": 48210,
                     *             "cost": 0.19,
                     *             "prompts": 2,
                     *             "wallMs": 95400
                     *           },
                     *           "stallLimit": 3,
                     *           "stalls": 0,
                     *           "state": "active",
                     *           "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *           "progress": [
                     *             {
                     *               "at": "2026-11-27T06:12:02.101Z",
                     *               "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *               "kind": "plan",
                     *               "text": "Run the tests, fix what fails."
                     *             },
                     *             {
                     *               "at": "2026-11-27T06:20:14.512Z",
                     *               "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *               "kind": "evidence",
                     *               "text": "c1: 128 passed, 0 failed"
                     *             }
                     *           ],
                     *           "turn": 2,
                     *           "version": 7,
                     *           "createdAt": "2026-11-27T06:12:00.000Z",
                     *           "updatedAt": "2026-11-27T06:20:14.512Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        items: components["schemas"]["Goal"][];
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
    getGoal: {
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
            /** @description The goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "active",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 7,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    createGoal: {
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
                /**
                 * @example {
                 *       "objective": "Get the test suite of the billing service green.",
                 *       "criteria": [
                 *         {
                 *           "description": "Every test of the billing service passes.",
                 *           "verify": {
                 *             "kind": "check",
                 *             "toolId": "tests.run"
                 *           }
                 *         },
                 *         {
                 *           "description": "Ada has read the fix and agrees with it."
                 *         }
                 *       ],
                 *       "budgets": {
                 *         "modelCalls": 40,
                 *         "prompts": 10
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateGoal"];
            };
        };
        responses: {
            /** @description The goal, created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 0,
                     *         "totalTokens": 0,
                     *         "cost": 0,
                     *         "prompts": 0,
                     *         "wallMs": 0
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "active",
                     *       "progress": [],
                     *       "turn": 1,
                     *       "version": 1,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:12:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    reviseGoal: {
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
                /**
                 * @example {
                 *       "budgets": {
                 *         "modelCalls": 80,
                 *         "prompts": 20
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReviseGoal"];
            };
        };
        responses: {
            /** @description The revised goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 80,
                     *         "prompts": 20
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "active",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 8,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    pauseGoal: {
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
                /**
                 * @example {
                 *       "reason": "Waiting for the staging database."
                 *     }
                 */
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "paused",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 7,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    resumeGoal: {
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
                /**
                 * @example {
                 *       "budgets": {
                 *         "modelCalls": 80
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Larger limits to go on with: a goal that ran out of budget needs the one it reached above what it used. */
                    budgets?: {
                        modelCalls?: number;
                        totalTokens?: number;
                        cost?: number;
                        prompts?: number;
                        wallMs?: number;
                    };
                };
            };
        };
        responses: {
            /** @description The goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "active",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 7,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    stopGoal: {
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
                /**
                 * @example {
                 *       "reason": "Done another way."
                 *     }
                 */
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "stopped",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 7,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
    confirmGoalCriterion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                criterionId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "note": "Read the fix: the rounding is right now."
                 *     }
                 */
                "application/json": {
                    /** @description What you saw (the evidence), at most 2,000 characters. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gol_Hq7Lm2Vx9Pz4Rt1K",
                     *       "conversationId": "conv_IxS5ZwE2g8Al0bN2",
                     *       "userId": "ada",
                     *       "objective": "Get the test suite of the billing service green.",
                     *       "criteria": [
                     *         {
                     *           "id": "c1",
                     *           "description": "Every test of the billing service passes.",
                     *           "verify": {
                     *             "kind": "check",
                     *             "toolId": "tests.run"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "by": "check",
                     *             "summary": "128 passed, 0 failed",
                     *             "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *             "toolCallId": "call_9Fa9BeimrYIal8Hi"
                     *           },
                     *           "lastCheck": {
                     *             "at": "2026-11-27T06:20:14.512Z",
                     *             "passed": true,
                     *             "summary": "128 passed, 0 failed"
                     *           }
                     *         },
                     *         {
                     *           "id": "c2",
                     *           "description": "Ada has read the fix and agrees with it.",
                     *           "verify": {
                     *             "kind": "human"
                     *           },
                     *           "evidence": {
                     *             "at": "2026-11-27T06:31:40.000Z",
                     *             "by": "human",
                     *             "summary": "Read the fix: the rounding is right now.",
                     *             "decidedBy": "ada"
                     *           }
                     *         }
                     *       ],
                     *       "budgets": {
                     *         "modelCalls": 40,
                     *         "prompts": 10
                     *       },
                     *       "used": {
                     *         "modelCalls": 12,
                     *         "totalTokens": 48210,
                     *         "cost": 0.19,
                     *         "prompts": 2,
                     *         "wallMs": 95400
                     *       },
                     *       "stallLimit": 3,
                     *       "stalls": 0,
                     *       "state": "completed",
                     *       "plan": "1. Run the tests. 2. Fix the rounding in invoice totals. 3. Run them again.",
                     *       "progress": [
                     *         {
                     *           "at": "2026-11-27T06:12:02.101Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "plan",
                     *           "text": "Run the tests, fix what fails."
                     *         },
                     *         {
                     *           "at": "2026-11-27T06:20:14.512Z",
                     *           "promptId": "prm_rdWWhAF2Yn4nXxVq",
                     *           "kind": "evidence",
                     *           "text": "c1: 128 passed, 0 failed"
                     *         }
                     *       ],
                     *       "turn": 2,
                     *       "version": 7,
                     *       "createdAt": "2026-11-27T06:12:00.000Z",
                     *       "updatedAt": "2026-11-27T06:20:14.512Z",
                     *       "endReason": "Every criterion has evidence."
                     *     }
                     */
                    "application/json": components["schemas"]["Goal"];
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "name": "meeting-notes",
                     *           "description": "Turn a meeting transcript or rough notes into clear minutes with decisions and action items.",
                     *           "kind": "folder",
                     *           "active": true,
                     *           "resources": [
                     *             "references/template.md"
                     *           ]
                     *         }
                     *       ],
                     *       "diagnostics": []
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "name": "meeting-notes",
                     *       "description": "Turn a meeting transcript or rough notes into clear minutes with decisions and action items.",
                     *       "kind": "folder",
                     *       "active": true,
                     *       "resources": [
                     *         "references/template.md"
                     *       ]
                     *     }
                     */
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
            /** @description A page of blueprints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "bp_X8TMtYPczxLXiMk6",
                     *           "owner": "shared",
                     *           "title": "Handle a customer refund",
                     *           "summary": "Check the order, issue the refund and tell the customer.",
                     *           "steps": "1. Find the order and check it is eligible.\n2. Issue the refund in the payment tool.\n3. Email the customer with the amount and the delay.",
                     *           "tags": [
                     *             "support",
                     *             "billing"
                     *           ],
                     *           "usageCount": 3,
                     *           "createdAt": "2026-11-27T05:49:26.610Z",
                     *           "updatedAt": "2026-11-27T05:49:26.610Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        items: components["schemas"]["Blueprint"][];
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
                    /**
                     * @example {
                     *       "id": "bp_X8TMtYPczxLXiMk6",
                     *       "owner": "shared",
                     *       "title": "Handle a customer refund",
                     *       "summary": "Check the order, issue the refund and tell the customer.",
                     *       "steps": "1. Find the order and check it is eligible.\n2. Issue the refund in the payment tool.\n3. Email the customer with the amount and the delay.",
                     *       "tags": [
                     *         "support",
                     *         "billing"
                     *       ],
                     *       "usageCount": 3,
                     *       "createdAt": "2026-11-27T05:49:26.610Z",
                     *       "updatedAt": "2026-11-27T05:49:26.610Z"
                     *     }
                     */
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
                    /**
                     * @example {
                     *       "instructions": "Answer in French. Amounts in euros."
                     *     }
                     */
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
                /**
                 * @example {
                 *       "instructions": "Answer in French. Amounts in euros."
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "instructions": "Answer in French. Amounts in euros."
                     *     }
                     */
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
    openaiListModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The models */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "normal",
                     *           "object": "model",
                     *           "created": 1795837767,
                     *           "owned_by": "tessera"
                     *         },
                     *         {
                     *           "id": "high",
                     *           "object": "model",
                     *           "created": 1795837767,
                     *           "owned_by": "tessera"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            /** @description Missing or invalid API key (your Tessera token) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
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
    openaiCreateChatCompletion: {
        parameters: {
            query?: never;
            header?: {
                /** @description A conversation of yours to send the message to (else it is found from the earlier messages, or new) */
                "x-tessera-conversation"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "normal",
                 *       "messages": [
                 *         {
                 *           "role": "user",
                 *           "content": "weather in Rome"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ChatCompletionRequest"];
            };
        };
        responses: {
            /** @description The answer: a `chat.completion`, or with `stream: true` `chat.completion.chunk` events ending with `data: [DONE]` */
            200: {
                headers: {
                    /** @description The conversation the message went to */
                    "x-tessera-conversation"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "chatcmpl_V1StGXR8Z5jdHi6B",
                     *       "object": "chat.completion",
                     *       "created": 1795837767,
                     *       "model": "normal",
                     *       "choices": [
                     *         {
                     *           "index": 0,
                     *           "message": {
                     *             "role": "assistant",
                     *             "content": "It is 15 °C in Rome now, between 9 °C and 18 °C today."
                     *           },
                     *           "finish_reason": "stop"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ChatCompletion"];
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description Missing or invalid API key (your Tessera token) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
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
            /** @description No such model (`model_not_found`), conversation or response of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description A prompt of the conversation is running (`conversation_busy`), or the conversation is full (`conversation_full`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body or the new message is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description A body that is not JSON (`Content-Type: application/json`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
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
            /** @description The prompt failed (`prompt_failed`); not to be retried as is */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    openaiCreateResponse: {
        parameters: {
            query?: never;
            header?: {
                /** @description A conversation of yours to send the message to (else it is found from the earlier messages, or new) */
                "x-tessera-conversation"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "model": "normal",
                 *       "input": "weather in Rome"
                 *     }
                 */
                "application/json": components["schemas"]["ResponseRequest"];
            };
        };
        responses: {
            /** @description The response, or with `stream: true` its events (`response.created` … `response.completed`) */
            200: {
                headers: {
                    /** @description The conversation the message went to */
                    "x-tessera-conversation"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prm_rdWWhAF2Yn4nXxVq",
                     *       "object": "response",
                     *       "created_at": 1795837767,
                     *       "status": "completed",
                     *       "model": "normal",
                     *       "output": [
                     *         {
                     *           "type": "message",
                     *           "id": "out__PsgyIcbItpKv8m0",
                     *           "role": "assistant",
                     *           "status": "completed",
                     *           "content": [
                     *             {
                     *               "type": "output_text",
                     *               "text": "It is 15 °C in Rome now.",
                     *               "annotations": []
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "store": true
                     *     }
                     */
                    "application/json": components["schemas"]["Response"];
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description Missing or invalid API key (your Tessera token) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
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
            /** @description No such model (`model_not_found`), conversation or response of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description A prompt of the conversation is running (`conversation_busy`), or the conversation is full (`conversation_full`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body or the new message is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description A body that is not JSON (`Content-Type: application/json`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
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
            /** @description The prompt failed (`prompt_failed`); not to be retried as is */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    aiSdkChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "chat-4f9a2c",
                 *       "messages": [
                 *         {
                 *           "id": "msg-1",
                 *           "role": "user",
                 *           "parts": [
                 *             {
                 *               "type": "text",
                 *               "text": "transfer $500 to Ada"
                 *             }
                 *           ]
                 *         }
                 *       ],
                 *       "trigger": "submit-message"
                 *     }
                 */
                "application/json": components["schemas"]["AiSdkChatRequest"];
            };
        };
        responses: {
            /** @description The UI message stream (Server-Sent Events, `x-vercel-ai-ui-message-stream: v1`), one JSON chunk per event; the `X-Tessera-Conversation` header names the conversation */
            200: {
                headers: {
                    /** @description The conversation of the chat */
                    "x-tessera-conversation"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
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
            /** @description An approval answered in a chat that has no conversation of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A prompt of the conversation runs or waits (`conversation_busy`: answer its approval first), the conversation is full (`conversation_full`), or nothing waits for the approval answered (`not_waiting`) */
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
}
