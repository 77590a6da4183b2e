/**
 * The live view of one run: the orchestrator strip, the agents (panels or compact rows, see
 * layout.ts), and the final answer while it streams. A pure function of the reducer's
 * {@link RunState}, the terminal size and the clock (CONTRIBUTING.md rules 1 and 3).
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import type { RunState } from "../../session/index.js";
import { AgentPanel } from "./agent-panel.js";
import { AgentRow } from "./agent-row.js";
import { FinalAnswer } from "./final-answer.js";
import { chooseLayout } from "./layout.js";
import { OrchestratorStrip, stripRows } from "./orchestrator-strip.js";

/** Props of {@link RunView}. */
export interface RunViewProps {
  state: RunState;
  /** Terminal columns. */
  columns: number;
  /** Rows the view may use (keep it below the terminal's height). */
  rows: number;
  /** Epoch ms, for the elapsed time. */
  now: number;
  /** Spinner frame counter. */
  frame: number;
}

/** Rows the streaming final answer may take at most. */
const MAX_FINAL_ROWS = 12;

/** The whole live view of a run. */
export function RunView({ state, columns, rows, now, frame }: RunViewProps): ReactElement {
  const width = Math.max(20, columns);
  const strip = stripRows(state, width);
  const finalRows =
    state.finalAnswer === null ? 0 : Math.max(2, Math.min(MAX_FINAL_ROWS, Math.floor(rows / 2)));
  const agentRows = Math.max(1, rows - strip - finalRows);
  // While the final answer streams, the agents shrink to one line each.
  const layout =
    state.finalAnswer === null
      ? chooseLayout(state.agents.length, width, agentRows)
      : chooseLayout(Number.MAX_SAFE_INTEGER, width, agentRows);
  return (
    <Box flexDirection="column" width={width}>
      <OrchestratorStrip state={state} now={now} width={width} />
      <Agents state={state} layout={layout} width={width} frame={frame} />
      <FinalAnswer state={state} width={width} height={finalRows} />
    </Box>
  );
}

function Agents({
  state,
  layout,
  width,
  frame,
}: {
  state: RunState;
  layout: ReturnType<typeof chooseLayout>;
  width: number;
  frame: number;
}): ReactElement {
  if (layout.kind !== "compact") {
    return (
      <Box flexDirection={layout.kind === "columns" ? "row" : "column"}>
        {state.agents.map((agent) => (
          <AgentPanel
            key={agent.id}
            agent={agent}
            width={layout.panelWidth}
            height={layout.panelHeight}
            frame={frame}
            answer={currentAnswer(state, agent.currentAnswerLabel)}
            runOver={state.phase === "done"}
          />
        ))}
      </Box>
    );
  }
  const idWidth = Math.min(16, Math.max(...state.agents.map((agent) => agent.id.length), 1));
  const modelWidth = Math.min(24, Math.max(...state.agents.map((agent) => agent.model.length), 1));
  const shown = state.agents.slice(0, layout.visible);
  const hidden = state.agents.slice(layout.visible);
  return (
    <Box flexDirection="column">
      {shown.map((agent) => (
        <AgentRow
          key={agent.id}
          agent={agent}
          width={width}
          idWidth={idWidth}
          modelWidth={modelWidth}
          runOver={state.phase === "done"}
          frame={frame}
        />
      ))}
      {hidden.length > 0 ? (
        <Text dimColor wrap="truncate">
          … {hidden.length} more agent{hidden.length === 1 ? "" : "s"} ({summarize(hidden)})
        </Text>
      ) : null}
    </Box>
  );
}

/** The text of the answer with this label, if any. */
function currentAnswer(state: RunState, label: string | null): string | undefined {
  if (label === null) return undefined;
  for (let index = state.answers.length - 1; index >= 0; index--)
    if (state.answers[index]!.label === label) return state.answers[index]!.content;
  return undefined;
}

/** `2 thinking, 1 answered` for the agents the compact layout could not show. */
function summarize(agents: RunState["agents"]): string {
  const counts = new Map<string, number>();
  for (const agent of agents) counts.set(agent.status, (counts.get(agent.status) ?? 0) + 1);
  return [...counts.entries()].map(([status, count]) => `${count} ${status}`).join(", ");
}
