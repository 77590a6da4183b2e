/**
 * The CoordEvent union: the one contract between the coordination engine and everything that
 * renders, logs, serves or replays a run (docs/architecture.md "One stream",
 * docs/coordination.md "Events").
 *
 * Every event carries the same envelope `{v, seq, time, runId, type, agentId?}`. The persisted
 * form (events.jsonl) is exactly this object, one per line; `v` is the schema version and a
 * reader rejects versions it does not know (see `./jsonl.ts`).
 *
 * Units: every `*Ms` field is milliseconds; token counts are tokens; `time` is ISO-8601 UTC.
 */
import { z } from "zod";
import { PlanTask } from "./plan.js";

/**
 * Schema version written in every event's `v` field. Bump on an incompatible change, keep a
 * fixture of every released version, and teach `./jsonl.ts` to upgrade it.
 *
 * - 1: the first release.
 * - 2: `agent-round-start` renamed `round-start`; streamed blocks as start/delta/end with a
 *   `blockId` (text, reasoning, final); new `final-end`, `retry` and `warning`; `run-end.reason`
 *   gains `shutdown`. Additive since: `straggler-cut`; the planning and execution modes (`plan`,
 *   `broadcast-question`, `broadcast-reply`, `plan-execution`, `task-status`, `task-added`).
 */
export const EVENT_SCHEMA_VERSION = 2;

/**
 * Why a run ended (docs/coordination.md "Events": `run-end.reason`): `completed` (a final answer),
 * `failed` (every agent failed), `timeout` (the orchestrator or a caller's timeout), `interrupted`
 * (Ctrl+C, SIGTERM, a client that went away), `shutdown` (the server stopping).
 */
export const RunEndReason = z.enum(["completed", "failed", "timeout", "interrupted", "shutdown"]);
export type RunEndReason = z.infer<typeof RunEndReason>;

/** Why a run was stopped from outside: the `run-end.reason` it then ends with. */
export const StopReason = z.enum(["timeout", "interrupted", "shutdown"]);
export type StopReason = z.infer<typeof StopReason>;

/** Coordination modes the engine implements (docs/coordination.md "Voting mode", "Other modes"). */
export const CoordinationMode = z.enum([
  "voting",
  "quick",
  "single",
  "decomposition",
  "planning",
  "execution",
]);
export type CoordinationMode = z.infer<typeof CoordinationMode>;

/** How a round ended; `metrics.json` counts rounds by this outcome. */
export const RoundOutcome = z.enum([
  "answer", // a valid new_answer
  "vote", // a valid vote
  "stop", // a valid stop (decomposition mode)
  "invalid", // no valid workflow call after the allowed attempts
  "error", // the backend failed (after retries)
  "aborted", // cancelled: timeout, interrupt, or the run ended
  "final", // the final presentation round
  "plan", // a planning call before coordination (subtasks, personas) that gave its output
]);
export type RoundOutcome = z.infer<typeof RoundOutcome>;

/** Token usage of one model call. All counts are tokens; unknown counts are 0. */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

const envelope = {
  /** Schema version, {@link EVENT_SCHEMA_VERSION} (older logs are upgraded when read). */
  v: z.literal(EVENT_SCHEMA_VERSION),
  /** 1-based position of the event in its run. */
  seq: z.number().int().positive(),
  /** ISO-8601 UTC timestamp from the injected clock. */
  time: z.string(),
  runId: z.string(),
  /** The real agent id (config `agents[].id`) the event is about, if any. */
  agentId: z.string().optional(),
};

const agentInfo = z.object({
  id: z.string(),
  /** `agent<N>`: the agent's 1-based position in config order. */
  anonId: z.string(),
  backend: z.string(),
  model: z.string(),
});

const ev = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ ...envelope, type: z.literal(type), ...shape });

/**
 * One streamed block of a model call (CONTRIBUTING.md rule 2): `<kind>-start`, any number of
 * `<kind>-delta`, `<kind>-end`, sharing a `blockId` unique within the run.
 */
const streamedBlock = <K extends string>(kind: K) => {
  const block = { round: z.number().int().positive(), blockId: z.string() };
  return [
    ev(`${kind}-start`, block),
    ev(`${kind}-delta`, { ...block, text: z.string() }),
    ev(`${kind}-end`, block),
  ] as const;
};

/**
 * Builds the zod schema of {@link CoordEvent}; {@link coordEventSchema} keeps the one built. Kept
 * out of module load: its ~40 object schemas cost about 60 ms of start-up, and a run
 * only writes events; readers of events.jsonl, the docs and the tests build it.
 */
function buildCoordEventSchema() {
  return z.discriminatedUnion("type", [
    ev("run-start", {
      question: z.string(),
      mode: CoordinationMode,
      agents: z.array(agentInfo),
      /** Earlier turns of a multi-turn conversation, oldest first. */
      historyTurns: z.number().int().nonnegative(),
    }),
    ev("round-start", {
      /** The agent's 1-based round counter. */
      round: z.number().int().positive(),
      /**
       * 1-based attempt at a valid workflow call (at most 3). A round opens with attempt 1; each
       * further attempt is announced by another `round-start` of the same round; one `round-end`
       * closes the round.
       */
      attempt: z.number().int().positive(),
      /** `coordinate`: a workflow round; `final`: the final presentation; `plan`: a planning call. */
      kind: z.enum(["coordinate", "final", "plan"]),
      /**
       * What a `plan` round produces: `subtasks` (the decomposer, decomposition mode) or `personas`
       * (the persona generator). A plan round without `agentId` ran on the persona generator's own
       * backend (`persona_generator.backend`).
       */
      produces: z.enum(["subtasks", "personas"]).optional(),
      /** Answer labels (`agent<N>.<M>`) the agent can see at the start of this round. */
      answersSeen: z.array(z.string()),
    }),
    ...streamedBlock("text"),
    ...streamedBlock("reasoning"),
    ev("tool-call", {
      round: z.number().int().positive(),
      toolCallId: z.string(),
      toolName: z.string(),
      input: z.unknown(),
    }),
    ev("tool-result", {
      round: z.number().int().positive(),
      toolCallId: z.string(),
      toolName: z.string(),
      output: z.string(),
      isError: z.boolean(),
      durationMs: z.number().nonnegative(),
    }),
    ev("workflow-invalid", {
      round: z.number().int().positive(),
      attempt: z.number().int().positive(),
      message: z.string(),
    }),
    ev("update-injected", {
      round: z.number().int().positive(),
      /** Answer labels the agent had not seen that the update carries. */
      labels: z.array(z.string()),
      /** `step`: after a tool result mid-round; `vote-refused`: in the refusal of a stale vote; `restart`: an idle agent started again. */
      via: z.enum(["step", "vote-refused", "restart"]),
    }),
    ev("answer", {
      round: z.number().int().positive(),
      /** `agent<N>.<M>`. */
      label: z.string(),
      anonId: z.string(),
      content: z.string(),
    }),
    ev("vote", {
      round: z.number().int().positive(),
      /** Real id of the agent voted for. */
      targetAgentId: z.string(),
      targetAnonId: z.string(),
      /** Label of the answer the vote is for. */
      label: z.string(),
      reason: z.string(),
    }),
    ev("vote-refused", {
      round: z.number().int().positive(),
      targetAnonId: z.string(),
      message: z.string(),
    }),
    ev("votes-reset", {
      /** The answer label whose arrival cleared the votes. */
      causeLabel: z.string(),
      cleared: z.number().int().nonnegative(),
    }),
    /**
     * Decomposition mode: the agent stopped working on its subtask, `complete` (its current answer
     * is its part) or `blocked` (`summary` says why). A new answer it has not seen wakes it again.
     */
    ev("stop", {
      round: z.number().int().positive(),
      status: z.enum(["complete", "blocked"]),
      summary: z.string(),
      /**
       * `agent`: the agent called `stop`; `answer-cap`: it gave `max_new_answers_per_agent` answers
       * in a row without news from the others, so the engine stopped it. Absent means `agent`.
       */
      cause: z.enum(["agent", "answer-cap"]).optional(),
    }),
    /**
     * Decomposition mode, before the first round: the subtask the agent owns. `source`: `config`
     * (its `subtask:` key), `decomposer` (the planning call), `fallback` (the planning call failed;
     * see the `warning` event).
     */
    ev("subtask", {
      anonId: z.string(),
      subtask: z.string(),
      source: z.enum(["config", "decomposer", "fallback"]),
    }),
    /**
     * Planning mode: an accepted plan, right after the `answer` event of the same label (whose
     * `content` is the plan as Markdown). The winner's plan is what `plan.json` stores.
     */
    ev("plan", {
      round: z.number().int().positive(),
      /** The answer label, `agent<N>.<M>`. */
      label: z.string(),
      anonId: z.string(),
      /** `plan.json`'s task objects, every status `pending`. */
      tasks: z.array(PlanTask),
      /** Markdown (requirements.md). */
      requirements: z.string(),
      /** Markdown (design_decisions.md). */
      designDecisions: z.string(),
    }),
    /**
     * Planning mode with `--broadcast human|agents`: the agent asks a question (`ask_others`);
     * `to` says who answers: the user, or the other agents (each a `broadcast-reply`).
     */
    ev("broadcast-question", {
      round: z.number().int().positive(),
      /** `q1`, `q2`, … in the run. */
      questionId: z.string(),
      to: z.enum(["human", "agents"]),
      question: z.string(),
    }),
    /**
     * A reply to a `broadcast-question`: `from` is `human` (the user; no `agentId`) or the real id
     * of the agent that replied (`agentId`). `text` is empty when the user gave no answer.
     */
    ev("broadcast-reply", {
      questionId: z.string(),
      from: z.string(),
      text: z.string(),
    }),
    /**
     * Execution mode, before the first round: the plan and the chunk this run executes, every task
     * with its status so far (earlier chunks done).
     */
    ev("plan-execution", {
      planId: z.string(),
      /** The 1-based chunk this run executes, of `chunks`. */
      chunk: z.number().int().positive(),
      chunks: z.number().int().positive(),
      tasks: z.array(PlanTask),
    }),
    /** Execution mode: the agent set a task's status (its own copy of the plan). */
    ev("task-status", {
      round: z.number().int().positive(),
      taskId: z.string(),
      status: z.enum(["pending", "in_progress", "completed", "verified"]),
      notes: z.string().optional(),
    }),
    /** Execution mode: the agent added a task to the chunk (`task.added_reason` says why). */
    ev("task-added", {
      round: z.number().int().positive(),
      task: PlanTask,
    }),
    ev("agent-error", {
      round: z.number().int().nonnegative(),
      message: z.string(),
      provider: z.string().optional(),
      status: z.number().int().optional(),
      retryable: z.boolean(),
      /** True when the agent is removed from the team. */
      fatal: z.boolean(),
      /**
       * What failed: `provider` (the provider answered with an error or not at all), `protocol`
       * (the model misbehaved: plain text, an unknown tool, a repeated answer, cut-off JSON),
       * `budget` (a per-agent limit of the run budget), `context` (the prompt outgrew the model's
       * context window). Absent in logs written before it existed: read as `provider`.
       */
      cause: z.enum(["provider", "protocol", "budget", "context"]).optional(),
    }),
    /**
     * A limit of the run budget (docs/real-models.md "The run budget") was reached. `scope: run` ends
     * coordination the way the orchestrator timeout does (the best answer so far is presented);
     * `scope: agent` removes that agent (`agentId`). `used` and `max` are in the limit's unit:
     * model calls, tokens (input + output) or USD.
     */
    ev("limit-reached", {
      scope: z.enum(["run", "agent"]),
      limit: z.enum(["calls", "tokens", "cost"]),
      used: z.number().nonnegative(),
      max: z.number().nonnegative(),
      message: z.string(),
    }),
    /**
     * The straggler rule (`timeout_settings.straggler_timeout_seconds`): every other agent was done
     * and a winner could be chosen, but this agent was still working; its round is aborted and it
     * leaves the team (the run goes on without it).
     */
    ev("straggler-cut", {
      round: z.number().int().positive(),
      /** How long it had kept the others waiting when cut: the straggler timeout. */
      waitedMs: z.number().nonnegative(),
      /** One line saying what happened and which setting decides it. */
      message: z.string(),
    }),
    ev("usage", {
      round: z.number().int().positive(),
      backend: z.string(),
      model: z.string(),
      usage: Usage,
      /**
       * The call's cost in USD from the price table (`backends/pricing.ts`); absent when the model
       * has no known price (its cost is unknown, never guessed).
       */
      costUsd: z.number().nonnegative().optional(),
      /** Wall time of the model call. */
      durationMs: z.number().nonnegative(),
      /** Time from request to first streamed chunk, if any chunk came. */
      timeToFirstTokenMs: z.number().nonnegative().optional(),
      finishReason: z.string(),
      /**
       * True for a request that failed (HTTP error, network, timeout, no reply): it still counts
       * as a model call, shown apart. Its `usage` is what the provider reported (usually zero) and
       * `finishReason` is `error`. Retries inside the backend are `retry` events, each one more
       * failed request sent.
       */
      failed: z.boolean().optional(),
    }),
    ev("round-end", {
      round: z.number().int().positive(),
      outcome: RoundOutcome,
      durationMs: z.number().nonnegative(),
    }),
    /**
     * The persona put before the agent's system message (persona generation, before the first
     * round). `source`: `generated` by this run's persona call, or `session`: reused from an earlier
     * turn (`persist_across_turns`). Absent means `generated`.
     */
    ev("persona", {
      persona: z.string(),
      source: z.enum(["generated", "session"]).optional(),
    }),
    ev("winner", {
      anonId: z.string(),
      label: z.string(),
      /** Current votes for the winning answer's conclusion group (voting modes), any of its answers. */
      votes: z.number().int().nonnegative(),
      /** Votes per real agent id, for the final answer set. */
      tally: z.record(z.string(), z.number().int().nonnegative()),
      tieBroken: z.boolean(),
      /**
       * How the winner was chosen. `partial`: coordination did not complete (agents removed, the
       * budget reached) and the winner was chosen from the answers in hand, by the votes that
       * exist, else the first answer in config order.
       */
      basis: z.enum(["votes", "timeout", "single", "quick", "decomposition", "partial"]),
      /**
       * What broke a tie of the conclusion groups (docs/coordination.md "How the winner is
       * chosen"): more agents' first answers, votes from agents outside the group, or the earliest
       * answer. Present when `tieBroken`.
       */
      tieBasis: z.enum(["first answers", "votes from outside", "earliest answer"]).optional(),
      /** The winning answer's conclusion (a number, a choice letter, a short phrase), if it has one. */
      conclusion: z.string().optional(),
      /**
       * The answers grouped by conclusion, best first (voting mode): each group's conclusion
       * (absent for a free-form answer, a group of its own), the labels of its answers (superseded
       * ones included), its current votes, the agents that gave an answer in it and how many of
       * them with their first answer.
       */
      groups: z
        .array(
          z.object({
            conclusion: z.string().optional(),
            labels: z.array(z.string()),
            votes: z.number().int().nonnegative(),
            agents: z.number().int().nonnegative(),
            firstAnswers: z.number().int().nonnegative(),
          }),
        )
        .optional(),
    }),
    /** The presenter's streamed final answer opens (after `round-start` of kind `final`). */
    ev("final-start", { blockId: z.string() }),
    ev("final-delta", { blockId: z.string(), text: z.string() }),
    ev("final-end", { blockId: z.string() }),
    ev("final-answer", {
      /** `agent<N>.final`. */
      label: z.string(),
      content: z.string(),
      /** `presentation`: written in the final round; `answer`: the winning answer as is. */
      source: z.enum(["presentation", "answer"]),
    }),
    ev("retry", {
      round: z.number().int().nonnegative(),
      /** 1-based retry number of this model call. */
      attempt: z.number().int().positive(),
      /** Wait before the retry (ms): the provider's Retry-After, else exponential backoff. */
      waitMs: z.number().nonnegative(),
      /** HTTP status of the failure, when it was an HTTP response. */
      status: z.number().int().optional(),
      /** `http`, `timeout` (no response within the request timeout) or `network`. */
      errorKind: z.enum(["http", "timeout", "network"]),
      /** The provider's message. */
      reason: z.string(),
    }),
    ev("workspace-snapshot", {
      /**
       * The answer it goes with (`agent<N>.<M>`), or `agent<N>.final` for the presenter's workspace
       * after the final presentation: the run's result (docs/tools.md "Workspaces").
       */
      label: z.string(),
      /** The live workspace that was copied (absolute path). */
      workspace: z.string(),
      files: z.number().int().nonnegative(),
      /** Total size of its files (bytes). */
      bytes: z.number().int().nonnegative(),
      /** Where the run log keeps the copy, relative to the attempt directory; absent without a log. */
      logPath: z.string().optional(),
    }),
    ev("warning", {
      /** Who warns: a provider (`openai/gpt-4o`), `config`, `tools`, … */
      source: z.string(),
      message: z.string(),
    }),
    ev("run-end", {
      reason: RunEndReason,
      durationMs: z.number().nonnegative(),
      /** One line saying what went wrong, when `reason` is not `completed`. */
      error: z.string().optional(),
      /**
       * Why the run's answer (or its failure) is degraded, one line per reason: agents removed and
       * what their model did, a budget limit, the orchestrator timeout, a failed presentation.
       * Absent for a clean run. A run that presented an answer keeps `reason: completed`.
       */
      degraded: z.array(z.string()).optional(),
    }),
  ]);
}

let builtSchema: ReturnType<typeof buildCoordEventSchema> | undefined;

/** The zod schema of {@link CoordEvent} (a discriminated union on `type`), built on first use. */
export function coordEventSchema(): ReturnType<typeof buildCoordEventSchema> {
  return (builtSchema ??= buildCoordEventSchema());
}

/** One event of a run, as emitted by the engine and stored in events.jsonl. */
export type CoordEvent = z.infer<ReturnType<typeof buildCoordEventSchema>>;
/** The `type` discriminator of {@link CoordEvent}. */
export type CoordEventType = CoordEvent["type"];
/** The event of one type. */
export type EventOf<T extends CoordEventType> = Extract<CoordEvent, { type: T }>;
/** An event without its envelope: what the engine's emitter is given. */
export type EventBody<T extends CoordEventType = CoordEventType> = T extends CoordEventType
  ? Omit<EventOf<T>, "v" | "seq" | "time" | "runId">
  : never;
