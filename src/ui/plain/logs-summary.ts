/**
 * `coord logs summary` as text (spec section 4.2): the header (run, question, status, why the run
 * was degraded, winner, failed model calls), then tables of agents, rounds by outcome, tokens and cost, top tools and model-call timing.
 * Renders only the data of `summarizeRun` (src/logs/run-summary.ts); no number is computed here.
 */
import { isAbsolute, relative } from "node:path";
import { oneLine } from "./trace-lines.js";
import type { LogsSummaryJson, RoundsJson, SummaryAgentJson } from "../../logs/index.js";
import {
  columnWidth,
  formatCost,
  formatCount,
  formatDuration,
  padCell,
  renderTable,
  type TableColumn,
} from "./text-table.js";

/** How a winner was chosen other than by votes (`winner.basis`). */
const WINNER_BASIS = {
  timeout: "best answer so far at the orchestrator timeout",
  single: "single agent",
  quick: "presenter in quick mode",
  decomposition: "decomposition presenter: integrates every part",
  partial: "coordination did not complete: the best of the answers in hand",
} as const;

/** Warnings listed in the header; `--json` has them all. */
const MAX_WARNINGS = 5;

/** Options of {@link renderLogsSummary}. */
export interface SummaryTextOptions {
  /** Paths under this directory are shown relative to it. */
  cwd: string;
}

/** The text of `coord logs summary`, without a trailing newline. */
export function renderLogsSummary(summary: LogsSummaryJson, options: SummaryTextOptions): string {
  const sections = [
    header(summary, options),
    agentsTable(summary),
    rolesSection(summary),
    planSection(summary),
    roundsTable(summary),
    tokensTable(summary),
    toolsSection(summary),
    timingTable(summary),
  ];
  return sections.filter((section) => section !== "").join("\n\n");
}

/** `path` relative to `cwd` when it is inside it, else as is. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

function header(summary: LogsSummaryJson, options: SummaryTextOptions): string {
  const name = summary.log_dir.split(/[\\/]/).at(-1) ?? summary.log_dir;
  const of = (value: number, all: number[]) => `${value} of ${all.length === 0 ? "?" : all.at(-1)}`;
  const lines: Array<[string, string]> = [
    [
      "Run",
      `${name} (turn ${of(summary.turn, summary.turns)}, attempt ${of(summary.attempt, summary.attempts)})`,
    ],
    ["Log", displayPath(summary.attempt_dir, options.cwd)],
    ...(summary.trace_id !== null ? [["Trace", summary.trace_id] as [string, string]] : []),
    ...(summary.price_data !== undefined
      ? [["Prices", summary.price_data] as [string, string]]
      : []),
    ["Question", oneLine(summary.question, 200)],
    ["Status", statusLine(summary)],
    ...summary.degraded.map((reason): [string, string] => ["Degraded", oneLine(reason, 200)]),
  ];
  const team = `${summary.agents.length} agent${summary.agents.length === 1 ? "" : "s"}`;
  lines.push(["Mode", `${summary.mode ?? "unknown"}, ${team}, ${summary.event_count} events`]);
  if (summary.started_at !== null) lines.push(["Started", summary.started_at]);
  const winner = summary.winner;
  if (winner !== null) {
    const tie = winner.tie_broken ? `, tie broken by ${winner.tie_basis ?? "config order"}` : "";
    const votes =
      winner.basis === "votes"
        ? `${votesText(winner.votes)}${tie}`
        : (WINNER_BASIS[winner.basis as keyof typeof WINNER_BASIS] ?? winner.basis);
    lines.push(["Winner", `${winner.agent_id ?? winner.anon_id} (${winner.label}, ${votes})`]);
    lines.push(...groupLines(winner.groups));
  } else {
    lines.push(["Winner", "none"]);
  }
  const final = summary.final_answer;
  if (final !== null && final.label !== null) {
    lines.push([
      "Final",
      `${final.label} (${final.source ?? "presentation"}, ${formatCount(final.characters)} characters)`,
    ]);
  } else if (final !== null) {
    lines.push(["Final", `${formatCount(final.characters)} characters streamed, never completed`]);
  }
  const failed = summary.totals.failed_model_calls;
  if (failed > 0) {
    const who = summary.agents
      .filter((agent) => agent.failed_model_calls > 0)
      .map((agent) => `${agent.id} ${agent.failed_model_calls}`)
      .join(", ");
    lines.push([
      "Failed",
      `${failed} of ${summary.totals.model_calls} model calls failed, retries included (${who})`,
    ]);
  }
  const retries = summary.totals.retries;
  if (retries.count > 0) {
    const who = summary.agents
      .filter((agent) => agent.retries.count > 0)
      .map((agent) => `${agent.id} ${agent.retries.count}`)
      .join(", ");
    lines.push([
      "Retries",
      `${retries.count} provider request${retries.count === 1 ? "" : "s"} retried, ${formatDuration(retries.wait_ms)} waited (${who})`,
    ]);
  }
  for (const warning of summary.warnings.slice(0, MAX_WARNINGS)) {
    const times = warning.count > 1 ? ` (${warning.count} times)` : "";
    lines.push(["Warning", `${warning.source}: ${oneLine(warning.message, 160)}${times}`]);
  }
  if (summary.warnings.length > MAX_WARNINGS) {
    lines.push([
      "Warning",
      `… and ${summary.warnings.length - MAX_WARNINGS} more (--json lists all)`,
    ]);
  }
  return lines
    .map(([key, value]) => `${(key === "" ? "" : `${key}:`).padEnd(10)}${value}`)
    .join("\n");
}

const votesText = (votes: number) => `${votes} vote${votes === 1 ? "" : "s"}`;

/**
 * The answers grouped by conclusion, best first, one line each: `★ 18: 2 votes; alice, bob
 * (agent1.2, agent2.1)`, the winner's group starred, a free-form answer as `(free-form)`. None for
 * a single free-form group (nothing to compare) or a log without groups.
 */
function groupLines(
  groups: NonNullable<LogsSummaryJson["winner"]>["groups"],
): Array<[string, string]> {
  if (groups.length === 0 || (groups.length === 1 && groups[0]!.conclusion === null)) return [];
  return groups.map((group, index) => [
    index === 0 ? "Groups" : "",
    `${group.won ? "★" : " "} ${group.conclusion === null ? "(free-form)" : oneLine(group.conclusion, 60)}: ${votesText(group.votes)}; ${group.agent_ids.join(", ")} (${group.labels.join(", ")})`,
  ]);
}

function statusLine(summary: LogsSummaryJson): string {
  const duration = formatDuration(summary.duration_ms);
  if (summary.status === "incomplete") {
    const why = summary.truncated
      ? "events.jsonl ends in a cut-off line: the run crashed while writing its log"
      : "no run-end event: the run is still going, or it stopped without closing its log";
    return `incomplete after ${duration} (${why})`;
  }
  return `${summary.status} in ${duration}${summary.error ? `: ${oneLine(summary.error, 200)}` : ""}`;
}

function agentsTable(summary: LogsSummaryJson): string {
  if (summary.agents.length === 0) return "";
  const withErrors = summary.agents.some((agent) => agent.last_error !== null);
  const columns: TableColumn[] = [
    { header: "Agent" },
    { header: "Backend" },
    { header: "Model" },
    { header: "Status" },
    { header: "Answers", align: "right" },
    ...(withErrors ? [{ header: "Last error" }] : []),
  ];
  const rows = summary.agents.map((agent) => [
    agent.id,
    agent.backend,
    agent.model,
    agent.status,
    String(agent.answers),
    ...(withErrors ? [agent.last_error === null ? "" : oneLine(agent.last_error, 60)] : []),
  ]);
  return renderTable(columns, rows);
}

/** Decomposition subtasks (with each agent's stop) and personas, one line per agent. */
function rolesSection(summary: LogsSummaryJson): string {
  const width = columnWidth(summary.agents.map((agent) => agent.id));
  const line = (id: string, text: string) => `  ${padCell(id, width)}  ${text}`;
  const sections: string[] = [];
  const withSubtasks = summary.agents.filter((agent) => agent.subtask !== null);
  if (withSubtasks.length > 0) {
    sections.push(
      [
        "Subtasks:",
        ...withSubtasks.map((agent) => {
          const source = agent.subtask!.source === "config" ? "" : ` (${agent.subtask!.source})`;
          const stop =
            agent.stop === null
              ? ""
              : ` — stopped, ${agent.stop.status}${agent.stop.summary ? `: ${oneLine(agent.stop.summary, 100)}` : ""}`;
          return line(agent.id, `${oneLine(agent.subtask!.text, 120)}${source}${stop}`);
        }),
      ].join("\n"),
    );
  }
  const withPersonas = summary.agents.filter((agent) => agent.persona !== null);
  if (withPersonas.length > 0) {
    sections.push(
      [
        "Personas:",
        ...withPersonas.map((agent) => line(agent.id, oneLine(agent.persona!, 160))),
      ].join("\n"),
    );
  }
  return sections.join("\n\n");
}

/** Planning: plans, the winner's task count, questions; execution: each agent's chunk progress. */
function planSection(summary: LogsSummaryJson): string {
  const plan = summary.plan;
  if (plan === null) return "";
  const lines: string[] = [];
  if (plan.execution === null) {
    lines.push(
      `Plans: ${plan.plans_submitted} submitted${plan.winning_tasks !== null ? `; the winner has ${plan.winning_tasks} task${plan.winning_tasks === 1 ? "" : "s"}` : ""}`,
    );
  } else {
    const { execution } = plan;
    lines.push(`Plan ${execution.plan_id}, chunk ${execution.chunk} of ${execution.chunks}:`);
    const width = columnWidth(execution.agents.map((agent) => agent.id));
    for (const agent of execution.agents)
      lines.push(
        `  ${padCell(agent.id, width)}  ${agent.done}/${agent.tasks} tasks done, ${agent.verified} verified${agent.added > 0 ? `, ${agent.added} added` : ""}`,
      );
  }
  if (plan.questions > 0)
    lines.push(`Questions: ${plan.questions} asked, ${plan.questions_answered} answered`);
  return lines.join("\n");
}

function roundsTable(summary: LogsSummaryJson): string {
  const withStops = summary.totals.rounds.stop > 0;
  const withPlans = summary.totals.rounds.plan > 0;
  const columns: TableColumn[] = [
    { header: "Rounds" },
    { header: "Answers", align: "right" },
    { header: "Votes", align: "right" },
    ...(withStops ? [{ header: "Stops", align: "right" as const }] : []),
    { header: "Refused votes", align: "right" },
    { header: "Errors", align: "right" },
    { header: "Invalid", align: "right" },
    { header: "Timeouts/aborted", align: "right" },
    { header: "Final", align: "right" },
    ...(withPlans ? [{ header: "Planning", align: "right" as const }] : []),
    { header: "Total", align: "right" },
  ];
  const cells = (rounds: RoundsJson) => [
    String(rounds.answer),
    String(rounds.vote),
    ...(withStops ? [String(rounds.stop)] : []),
    String(rounds.vote_refused),
    String(rounds.error),
    String(rounds.invalid),
    String(rounds.aborted),
    String(rounds.final),
    ...(withPlans ? [String(rounds.plan)] : []),
    String(rounds.total),
  ];
  return renderTable(
    columns,
    summary.agents.map((agent) => [agent.id, ...cells(agent.rounds)]),
    ["TOTAL", ...cells(summary.totals.rounds)],
  );
}

function tokensTable(summary: LogsSummaryJson): string {
  // Calls count every request sent; the failed ones get a column when there are any.
  const withFailed = summary.totals.failed_model_calls > 0;
  const columns: TableColumn[] = [
    { header: "Tokens" },
    { header: "Input", align: "right" },
    { header: "Output", align: "right" },
    { header: "Reasoning", align: "right" },
    { header: "Cached", align: "right" },
    { header: "Calls", align: "right" },
    ...(withFailed ? [{ header: "Failed", align: "right" as const }] : []),
    { header: "Cost", align: "right" },
  ];
  const cells = (
    part: Pick<SummaryAgentJson, "tokens" | "model_calls" | "failed_model_calls" | "cost_usd">,
  ) => [
    formatCount(part.tokens.input),
    formatCount(part.tokens.output),
    formatCount(part.tokens.reasoning),
    formatCount(part.tokens.cached_input),
    formatCount(part.model_calls),
    ...(withFailed ? [formatCount(part.failed_model_calls)] : []),
    formatCost(part.cost_usd),
  ];
  return renderTable(
    columns,
    summary.agents.map((agent) => [agent.id, ...cells(agent)]),
    ["TOTAL", ...cells(summary.totals)],
  );
}

function toolsSection(summary: LogsSummaryJson): string {
  if (summary.top_tools.length === 0) return "Tools: none called";
  const shown = summary.top_tools.length;
  const all = summary.tool_totals;
  const table = renderTable(
    [
      { header: "Top tools by time" },
      { header: "Calls", align: "right" },
      { header: "Failures", align: "right" },
      { header: "Total", align: "right" },
      { header: "Avg", align: "right" },
    ],
    summary.top_tools.map((tool) => [
      tool.name,
      formatCount(tool.calls),
      formatCount(tool.failures),
      formatDuration(tool.total_ms),
      formatDuration(tool.mean_ms),
    ]),
  );
  const note = `${shown} shown; all tools: ${formatCount(all.calls)} calls, ${formatCount(all.failures)} failed, ${formatDuration(all.total_ms)} (coord logs tools)`;
  return `${table}\n${note}`;
}

function timingTable(summary: LogsSummaryJson): string {
  if (summary.model_call_timing.length === 0) return "";
  return renderTable(
    [
      { header: "Model calls" },
      { header: "Agents" },
      { header: "Calls", align: "right" },
      { header: "Avg time", align: "right" },
      { header: "Avg first token", align: "right" },
    ],
    summary.model_call_timing.map((group) => [
      group.model === "" ? group.backend : `${group.backend}/${group.model}`,
      group.agents.join(", "),
      formatCount(group.calls),
      formatDuration(group.mean_ms),
      group.time_to_first_token.mean_ms === null
        ? "-"
        : `${formatDuration(group.time_to_first_token.mean_ms)} (${group.time_to_first_token.count})`,
    ]),
  );
}
