import { useEffect, useRef } from "react";
import type { AgentState, RunState } from "../../../session/index.js";
import { cost, statusLabel, statusTone, tokenLine, WORKFLOW_TOOLS } from "./format.js";

/** One agent: status, streamed reasoning and text, current answer, vote, tools, usage. */
export function AgentCard({ agent, state }: { agent: AgentState; state: RunState }) {
  const textRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = textRef.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [agent.text]);
  const answer = agent.currentAnswerLabel
    ? state.answers.findLast((candidate) => candidate.label === agent.currentAnswerLabel)
    : undefined;
  const isWinner = state.winner?.agentId === agent.id;
  const tools = Object.entries(agent.counters.tools).filter(([name]) => !WORKFLOW_TOOLS.has(name));
  return (
    <article
      className={`card agent-card${isWinner ? " winner" : ""}`}
      data-testid="agent-card"
      data-agent={agent.id}
      data-status={agent.status}
    >
      <header className="card-head">
        <div className="agent-name">
          <strong>{agent.id}</strong>
          <span className="anon" title="anonymous id the other agents see">
            {agent.anonId}
          </span>
          {isWinner && <span className="badge winner-badge">winner</span>}
        </div>
        <span className={`pill ${statusTone(agent, state)}`} data-testid="agent-status">
          {statusLabel(agent, state)}
        </span>
      </header>
      <div className="model">
        {agent.backend}/{agent.model}
        {agent.round > 0 && <span className="round"> · round {agent.round}</span>}
      </div>
      {agent.persona && <div className="persona">{agent.persona}</div>}
      {agent.reasoning.trim() !== "" && (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <div className="stream">{agent.reasoning}</div>
        </details>
      )}
      <div className="stream text" ref={textRef} data-testid="agent-text">
        {agent.text.trim() !== "" ? (
          agent.text
        ) : (
          <span className="placeholder">
            {agent.roundKind === "final"
              ? "Writes the final answer (below)."
              : agent.round === 0
                ? "Waiting to start."
                : "No text in this round."}
          </span>
        )}
      </div>
      {answer && (
        <details className="answer" data-testid="agent-answer">
          <summary>
            Answer <code>{answer.label}</code>
          </summary>
          <div className="answer-text">{answer.content}</div>
        </details>
      )}
      {agent.vote && (
        <div className="vote-line" data-testid="agent-vote">
          Voted for <strong>{agent.vote.targetAgentId}</strong>
          {agent.vote.reason ? `: ${agent.vote.reason}` : ""}
        </div>
      )}
      {agent.lastError && agent.status !== "done" && (
        <div className={`error-line${agent.lastError.fatal ? " fatal" : ""}`}>
          {agent.lastError.message}
        </div>
      )}
      {(tools.length > 0 || agent.activeTool) && (
        <div className="tools" data-testid="agent-tools">
          {agent.activeTool && !WORKFLOW_TOOLS.has(agent.activeTool) && (
            <span className="chip active">running {agent.activeTool}</span>
          )}
          {tools.map(([name, stats]) => (
            <span className="chip" key={name} title={`${stats.failures} failed`}>
              {name} ×{stats.calls}
              {stats.failures > 0 && <span className="bad"> ({stats.failures} failed)</span>}
            </span>
          ))}
        </div>
      )}
      <footer className="card-foot">
        <span>{tokenLine(agent.counters)}</span>
        <span>{cost(agent.counters)}</span>
      </footer>
    </article>
  );
}
