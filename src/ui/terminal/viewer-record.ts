/**
 * The whole record of a finished run, as `coord viewer` shows it once every event is in (spec
 * §4.2: agent panels, tool calls, votes, final presentation): the question, one panel per agent
 * holding everything it did in order (rounds, tool calls with their results, answers in full,
 * votes with their reasons, refusals, errors, stops), the run's warnings and errors, then the
 * final answer in full. Built as styled lines of at most `width` columns so the viewer can scroll
 * them. Pure: the recorded events and the reducer's final state in, lines out.
 */
import type { CoordEvent } from "../../events/index.js";
import { type AgentState, agentStatusText, type RunState } from "../../session/index.js";
import { oneLine } from "../plain/index.js";
import { wrapLine } from "./format.js";

/** A run of text in one style (Ink colour names). */
export interface RecordSegment {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

/** One line of the record: segments whose texts together fit in the width. */
export type RecordLine = RecordSegment[];

/**
 * The coordination tools (src/engine/workflow-tools.ts): their calls show as the answer, vote or
 * stop lines, so their call and (successful) result lines are left out.
 */
const WORKFLOW_TOOLS: ReadonlySet<string> = new Set(["new_answer", "vote", "stop", "submit_plan"]);

/** Characters of a tool call's input and result shown (on one line each). */
const TOOL_TEXT_MAX = 400;

/**
 * The record's lines at `width` columns (at least 20).
 * @param events every event shown, in log order.
 */
export function viewerRecord(
  events: readonly CoordEvent[],
  state: RunState,
  width: number,
): RecordLine[] {
  const columns = Math.max(20, width);
  const lines: RecordLine[] = [];
  if (state.question !== "") {
    wrapped(lines, `Question: ${state.question}`, columns, { bold: true });
  }
  const byAgent = new Map<string, CoordEvent[]>();
  for (const event of events) {
    if (event.agentId === undefined) continue;
    const list = byAgent.get(event.agentId) ?? [];
    list.push(event);
    byAgent.set(event.agentId, list);
  }
  for (const agent of state.agents) {
    lines.push(...agentPanel(agent, byAgent.get(agent.id) ?? [], state, columns));
  }
  for (const warning of state.warnings) {
    const count = warning.count > 1 ? ` (×${warning.count})` : "";
    wrapped(lines, `⚠ ${warning.source}: ${warning.message}${count}`, columns, { color: "yellow" });
  }
  for (const reason of state.degraded) wrapped(lines, `⚠ ${reason}`, columns, { color: "yellow" });
  if (state.error !== null) wrapped(lines, `✗ ${state.error}`, columns, { color: "red" });
  if (state.finalAnswer !== null) {
    const presenter = state.presenterId ?? state.winner?.agentId ?? "?";
    const label = state.finalAnswerLabel ? ` (${state.finalAnswerLabel})` : "";
    wrapped(lines, `── Final answer · ${presenter}${label} ──`, columns, {
      color: "magenta",
      bold: true,
    });
    for (const raw of state.finalAnswer.replace(/\s+$/u, "").split("\n")) {
      const line = raw.replace(/\t/g, "  ").replace(/\s+$/u, "");
      if (line === "") lines.push([{ text: "" }]);
      else for (const part of wrapLine(line, columns)) lines.push([{ text: part }]);
    }
  }
  return lines;
}

/** Pushes `text` word-wrapped at `width`, each line in `style`. */
function wrapped(
  lines: RecordLine[],
  text: string,
  width: number,
  style: Omit<RecordSegment, "text"> = {},
): void {
  for (const raw of text.split("\n")) {
    for (const part of wrapLine(raw.replace(/\t/g, "  "), width))
      lines.push([{ ...style, text: part }]);
  }
}

/** One agent's bordered panel: a header with its model and last status, then what it did. */
function agentPanel(
  agent: AgentState,
  events: readonly CoordEvent[],
  state: RunState,
  width: number,
): RecordLine[] {
  const inner = width - 4;
  const body: RecordLine[] = [];
  const winner = state.winner?.agentId === agent.id;
  for (const event of events) describe(event, inner, body);
  if (body.length === 0) body.push([{ text: "(nothing recorded)", dim: true }]);
  const title = ` ${agent.id} · ${agent.model} · ${agentStatusText(agent, { runOver: state.phase === "done" })}${winner ? " · ★ winner" : ""} `;
  const shownTitle =
    [...title].length > width - 4 ? `${[...title].slice(0, width - 5).join("")}… ` : title;
  const color = winner ? "yellow" : "gray";
  const top: RecordLine = [
    { text: "╭─", color },
    { text: shownTitle, bold: true, ...(winner ? { color: "yellow" } : {}) },
    { text: `${"─".repeat(Math.max(0, width - 3 - [...shownTitle].length))}╮`, color },
  ];
  const middle = body.map((segments): RecordLine => {
    const used = segments.reduce((sum, segment) => sum + [...segment.text].length, 0);
    return [
      { text: "│ ", color },
      ...segments,
      { text: `${" ".repeat(Math.max(0, inner - used))} │`, color },
    ];
  });
  return [top, ...middle, [{ text: `╰${"─".repeat(width - 2)}╯`, color }]];
}

/** Appends the lines one event of `agent` gives (nothing for stream deltas and usage). */
function describe(event: CoordEvent, width: number, out: RecordLine[]): void {
  const say = (text: string, style: Omit<RecordSegment, "text"> = {}) => {
    for (const part of wrapLine(text, width)) out.push([{ ...style, text: part }]);
  };
  switch (event.type) {
    case "round-start": {
      const kind =
        event.kind === "final"
          ? " · final presentation"
          : event.kind === "plan"
            ? " · planning"
            : "";
      const attempt = event.attempt > 1 ? ` · attempt ${event.attempt}` : "";
      say(`round ${event.round}${kind}${attempt}`, { dim: true });
      return;
    }
    case "tool-call":
      if (WORKFLOW_TOOLS.has(event.toolName)) return;
      say(`⚙ ${event.toolName} ${oneLine(inputText(event.input), TOOL_TEXT_MAX)}`, {
        color: "cyan",
      });
      return;
    case "tool-result":
      if (WORKFLOW_TOOLS.has(event.toolName)) {
        if (event.isError)
          say(`✗ ${event.toolName} refused: ${oneLine(event.output, TOOL_TEXT_MAX)}`, {
            color: "red",
          });
        return;
      }
      say(
        `  ↳ ${event.isError ? "error: " : ""}${oneLine(event.output, TOOL_TEXT_MAX)} (${event.durationMs} ms)`,
        event.isError ? { color: "red" } : { dim: true },
      );
      return;
    case "answer":
      say(`✎ answer ${event.label}:`, { color: "green", bold: true });
      for (const line of event.content.replace(/\s+$/u, "").split("\n")) {
        if (line.trim() === "") continue;
        say(`  ${line.replace(/\t/g, "  ")}`);
      }
      return;
    case "vote":
      say(`✓ voted for ${event.targetAgentId} (${event.label}): “${oneLine(event.reason)}”`, {
        color: "blue",
      });
      return;
    case "vote-refused":
      say(`✗ vote refused: ${oneLine(event.message)}`, { color: "yellow" });
      return;
    case "workflow-invalid":
      say(`! ${oneLine(event.message)}`, { color: "yellow" });
      return;
    case "update-injected":
      say(`↻ sees new answers ${event.labels.join(", ")}`, { dim: true });
      return;
    case "stop":
      say(`■ stopped (${event.status}): ${oneLine(event.summary)}`, { color: "magenta" });
      return;
    case "subtask":
      say(`subtask: ${oneLine(event.subtask)}`, { dim: true });
      return;
    case "agent-error":
      say(`✗ ${event.fatal ? "removed" : "error"}: ${oneLine(event.message)}`, { color: "red" });
      return;
    case "straggler-cut":
      say(`✗ ${oneLine(event.message)}`, { color: "red" });
      return;
    case "broadcast-question":
      say(`? asks ${event.to}: ${oneLine(event.question)}`, { color: "cyan" });
      return;
    case "task-status":
      say(
        `task ${event.taskId} → ${event.status}${event.notes ? `: ${oneLine(event.notes)}` : ""}`,
        {
          dim: true,
        },
      );
      return;
    case "limit-reached":
      say(`✗ ${oneLine(event.message)}`, { color: "red" });
      return;
    default:
  }
}

/** A tool call's input on one line: JSON, or the text itself. */
function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return String(input);
  }
}
