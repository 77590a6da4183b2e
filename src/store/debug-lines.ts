/**
 * The lines `coord_debug.log` holds for a run's events (spec §4.1 `--debug`; docs/logs.md "The
 * debug log"): what someone debugging a run wants to read, one line per event (streamed deltas are
 * left out: the text is in the `answer` / `final-answer` events and in events.jsonl):
 *
 * - rounds: start (kind, attempt, answers seen, the model asked) and end (outcome, ms);
 * - model requests: each one's end (`usage`): agent, backend/model, status (`ok` / `failed`),
 *   finish reason, tokens (input, cached, output, reasoning), ms, time to first token, cost USD,
 *   and when it started; retries (attempt, wait ms, HTTP status, reason);
 * - tool calls with their input, tool results with ms, size and the start of the output;
 * - answers, votes, refusals, winner, final answer, warnings, limits, errors with their cause,
 *   run end with its reason.
 *
 * Plain data → text; no I/O. The caller stamps each line with the time it writes it and passes it
 * through the redactor (src/redact.ts): tool inputs and outputs may hold anything.
 */
import type { CoordEvent } from "../events/index.js";

/** Longest excerpt of a tool input, tool output, answer or message (characters). */
const EXCERPT = 300;

/** Turns events into debug lines; remembers each agent's backend and model from `run-start`. */
export interface DebugLineFormatter {
  /** The lines for `event`, each without a timestamp; [] for streamed deltas. */
  lines(event: CoordEvent): string[];
}

/** A formatter for one run. */
export function createDebugLineFormatter(): DebugLineFormatter {
  const models = new Map<string, string>();
  const requests = new Map<string, number>();
  const who = (event: CoordEvent) => event.agentId ?? "orchestrator";
  const modelOf = (event: CoordEvent) =>
    event.agentId === undefined ? "the persona/planning model" : (models.get(event.agentId) ?? "?");

  const lines = (event: CoordEvent): string[] => {
    const agent = who(event);
    switch (event.type) {
      case "run-start":
        for (const info of event.agents) models.set(info.id, `${info.backend}/${info.model}`);
        return [
          `run start: mode ${event.mode}, ${event.agents.length} agent${event.agents.length === 1 ? "" : "s"} (${event.agents.map((info) => `${info.id} = ${info.anonId}, ${info.backend}/${info.model}`).join("; ")}), ${event.historyTurns} earlier turn${event.historyTurns === 1 ? "" : "s"}, question ${event.question.length} chars: ${clip(event.question)}`,
        ];
      case "round-start": {
        const count = (requests.get(agent) ?? 0) + 1;
        requests.set(agent, count);
        return [
          `${agent}: round ${event.round} start (${event.kind}${event.produces ? ` → ${event.produces}` : ""}, attempt ${event.attempt}, sees ${event.answersSeen.length === 0 ? "no answers" : event.answersSeen.join(", ")}); model request ${count} start: ${modelOf(event)}`,
        ];
      }
      case "usage": {
        const started = new Date(Date.parse(event.time) - event.durationMs).toISOString();
        const { usage } = event;
        return [
          `${agent}: model request end: ${event.backend}/${event.model} ${event.failed === true ? "failed" : "ok"}, finish ${event.finishReason}, tokens in ${usage.inputTokens} (cached ${usage.cachedInputTokens}) out ${usage.outputTokens} (reasoning ${usage.reasoningTokens}), ${Math.round(event.durationMs)} ms${event.timeToFirstTokenMs !== undefined ? ` (first token ${Math.round(event.timeToFirstTokenMs)} ms)` : ""}, cost ${event.costUsd !== undefined ? `$${event.costUsd.toFixed(6)}` : "unknown"}, round ${event.round}, started ${started}`,
        ];
      }
      case "retry":
        return [
          `${agent}: model request retry ${event.attempt} (${modelOf(event)}) in ${Math.round(event.waitMs)} ms after ${event.errorKind}${event.status !== undefined ? ` ${event.status}` : ""}: ${clip(event.reason)}`,
        ];
      case "tool-call":
        return [
          `${agent}: tool call ${event.toolName} (${event.toolCallId}, round ${event.round}) input ${clip(json(event.input))}`,
        ];
      case "tool-result":
        return [
          `${agent}: tool result ${event.toolName} (${event.toolCallId}) ${event.isError ? "error" : "ok"} in ${Math.round(event.durationMs)} ms, ${event.output.length} chars: ${clip(event.output)}`,
        ];
      case "workflow-invalid":
        return [
          `${agent}: invalid workflow call (round ${event.round}, attempt ${event.attempt}): ${clip(event.message)}`,
        ];
      case "update-injected":
        return [
          `${agent}: update injected (${event.via}, round ${event.round}): ${event.labels.join(", ")}`,
        ];
      case "answer":
        return [
          `${agent}: answer ${event.label} (round ${event.round}, ${event.content.length} chars): ${clip(event.content)}`,
        ];
      case "vote":
        return [
          `${agent}: vote for ${event.targetAgentId} (${event.label}, round ${event.round}): ${clip(event.reason)}`,
        ];
      case "vote-refused":
        return [`${agent}: vote for ${event.targetAnonId} refused: ${clip(event.message)}`];
      case "votes-reset":
        return [`votes reset: ${event.cleared} cleared by the new answer ${event.causeLabel}`];
      case "stop":
        return [
          `${agent}: stop ${event.status}${event.cause === "answer-cap" ? " (answer cap)" : ""}: ${clip(event.summary)}`,
        ];
      case "subtask":
        return [`${agent}: subtask (${event.source}): ${clip(event.subtask)}`];
      case "plan":
        return [
          `${agent}: plan ${event.label}: ${event.tasks.length} task${event.tasks.length === 1 ? "" : "s"} (${event.tasks.map((task) => task.id).join(", ")})`,
        ];
      case "broadcast-question":
        return [
          `${agent}: asks ${event.to === "human" ? "the user" : "the other agents"} (${event.questionId}): ${clip(event.question)}`,
        ];
      case "broadcast-reply":
        return [`${event.from}: reply to ${event.questionId}: ${clip(event.text) || "(none)"}`];
      case "plan-execution":
        return [
          `plan ${event.planId}: executing chunk ${event.chunk}/${event.chunks} (${event.tasks.length} tasks)`,
        ];
      case "task-status":
        return [`${agent}: task ${event.taskId} → ${event.status}`];
      case "task-added":
        return [`${agent}: task added ${event.task.id}`];
      case "agent-error":
        return [
          `${agent}: error (cause ${event.cause ?? "provider"}${event.provider ? `, ${event.provider}` : ""}${event.status !== undefined ? `, status ${event.status}` : ""}, ${event.retryable ? "retryable" : "not retryable"}${event.fatal ? ", agent removed" : ""}, round ${event.round}): ${clip(event.message)}`,
        ];
      case "limit-reached":
        return [
          `limit reached (${event.scope}${event.agentId ? ` ${event.agentId}` : ""}, ${event.limit}): ${event.used} of ${event.max}: ${clip(event.message)}`,
        ];
      case "straggler-cut":
        return [
          `${agent}: cut as a straggler after ${Math.round(event.waitedMs)} ms: ${clip(event.message)}`,
        ];
      case "round-end":
        return [
          `${agent}: round ${event.round} end: ${event.outcome} in ${Math.round(event.durationMs)} ms`,
        ];
      case "persona":
        return [`${agent}: persona (${event.source ?? "generated"}): ${clip(event.persona)}`];
      case "winner":
        return [
          `winner: ${agent} (${event.label}, ${event.basis}, ${event.votes} vote${event.votes === 1 ? "" : "s"}${event.tieBroken ? `, tie broken by ${event.tieBasis ?? "?"}` : ""}); tally ${json(event.tally)}`,
        ];
      case "final-start":
        return [`${agent}: final presentation start`];
      case "final-answer":
        return [
          `${agent}: final answer ${event.label} (${event.source}, ${event.content.length} chars)`,
        ];
      case "workspace-snapshot":
        return [
          `${agent}: workspace snapshot ${event.label}: ${event.files} files, ${event.bytes} bytes`,
        ];
      case "warning":
        return [`warning (${event.source}): ${clip(event.message)}`];
      case "run-end":
        return [
          `run end: ${event.reason} in ${Math.round(event.durationMs)} ms${event.error ? `; error: ${clip(event.error)}` : ""}${event.degraded?.length ? `; degraded: ${event.degraded.map((reason) => clip(reason)).join(" | ")}` : ""}`,
        ];
      default:
        // Streamed blocks (text, reasoning, final deltas and their start/end): in events.jsonl.
        return [];
    }
  };
  return { lines };
}

/** One line of at most {@link EXCERPT} characters (whitespace runs become one space). */
function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= EXCERPT ? flat : `${flat.slice(0, EXCERPT - 1)}…`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
