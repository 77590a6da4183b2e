import type { RunState } from "../../../session/index.js";
import { cost, duration, tokens, WORKFLOW_TOOLS } from "./format.js";

/** Tokens, cost and tool use per agent and for the run. */
export function UsageTable({ state }: { state: RunState }) {
  const rows = [
    ...state.agents.map((agent) => ({ name: agent.id, counters: agent.counters })),
    { name: "Total", counters: state.totals },
  ];
  const tools = Object.entries(state.totals.tools);
  return (
    <div className="usage" data-testid="usage">
      <table>
        <thead>
          <tr>
            <th>Agent</th>
            <th>Calls</th>
            <th>Input</th>
            <th>Output</th>
            <th>Reasoning</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className={row.name === "Total" ? "total" : ""}>
              <td>{row.name}</td>
              <td>{row.counters.usage.modelCalls}</td>
              <td>{tokens(row.counters.usage.inputTokens)}</td>
              <td>{tokens(row.counters.usage.outputTokens)}</td>
              <td>{tokens(row.counters.usage.reasoningTokens)}</td>
              <td>{cost(row.counters)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Tools</h3>
      {tools.length === 0 ? (
        <p className="muted">No tool calls.</p>
      ) : (
        <table data-testid="tool-table">
          <thead>
            <tr>
              <th>Tool</th>
              <th>Calls</th>
              <th>Failed</th>
              <th>Total time</th>
            </tr>
          </thead>
          <tbody>
            {tools.map(([name, stats]) => (
              <tr key={name}>
                <td>
                  {name}
                  {WORKFLOW_TOOLS.has(name) && <span className="muted"> (workflow)</span>}
                </td>
                <td>{stats.calls}</td>
                <td>{stats.failures}</td>
                <td>{duration(stats.totalMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
