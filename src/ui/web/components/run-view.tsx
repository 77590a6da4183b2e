import { type ReactNode, useState } from "react";
import { wallTimeMs } from "../../../session/index.js";
import type { RunEntry } from "../run-store.js";
import { AgentCard } from "./agent-card.js";
import { AnswersList } from "./answers.js";
import { cost, duration, tokenLine } from "./format.js";
import { MarkdownView } from "./markdown-view.js";
import { Timeline } from "./timeline.js";
import { UsageTable } from "./usage-table.js";
import { VoteTally } from "./vote-tally.js";

/** The tabs under the run; `workspace` only where a workspace browser is given. */
export type RunTab = "timeline" | "answers" | "usage" | "workspace";

/** Options of {@link RunView}. */
export interface RunViewProps {
  entry: RunEntry;
  /** The question when no event told it yet (a turn just asked). */
  question: string;
  tab: RunTab;
  onTab: (tab: RunTab) => void;
  /** The workspace browser (live page only). */
  workspace?: ReactNode;
}

const PHASES: Record<string, string> = {
  starting: "starting",
  coordinating: "coordinating",
  presenting: "writing the final answer",
  done: "done",
};

/** Questions longer than this many characters are folded (an analysis quotes whole files). */
const QUESTION_FOLD = 400;

/** The run's question; a long one folded to its start with a toggle. */
function Question({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > QUESTION_FOLD || text.split("\n").length > 6;
  return (
    <div className="question-box">
      <p className={`question${long && !open ? " folded" : ""}`} data-testid="question">
        {text}
      </p>
      {long && (
        <button className="link" onClick={() => setOpen(!open)}>
          {open
            ? "Fold the question"
            : `Show the whole question (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </div>
  );
}

/**
 * One run: the question, one card per agent, the vote tally and winner, the final answer, and
 * tabs with the timeline, all answers, usage and (live) the workspaces. The live page and the
 * share viewer both render runs with it, from the reducer's state.
 */
export function RunView({ entry, question, tab, onTab, workspace }: RunViewProps) {
  const { state, events } = entry;
  const ended = state.phase === "done";
  const outcome = ended ? (state.endReason ?? "failed") : PHASES[state.phase];
  const tabs: Array<[RunTab, string, string]> = [
    ["timeline", "Timeline", "t"],
    ["answers", `Answers (${state.answers.length})`, "a"],
    ["usage", "Usage & tools", "u"],
    ...(workspace ? ([["workspace", "Workspace", "w"]] as Array<[RunTab, string, string]>) : []),
  ];
  return (
    <div
      className="run"
      data-testid="run"
      data-phase={state.phase}
      data-last-seq={state.lastSeq}
      data-event-count={state.eventCount}
    >
      <section className="question-head">
        <Question text={state.question || question} />
        <div className="run-meta">
          <span
            className={`pill ${ended ? (state.endReason !== "completed" ? "bad" : state.degraded.length > 0 ? "warn" : "good") : "busy"}`}
            data-testid="run-status"
          >
            {outcome}
            {ended && state.degraded.length > 0 ? ", degraded" : ""}
          </span>
          {state.mode && <span>{state.mode}</span>}
          {state.startedAt !== null && <span>{duration(wallTimeMs(state))}</span>}
          <span>{tokenLine(state.totals)}</span>
          <span>{cost(state.totals)}</span>
        </div>
        {state.error && <p className="error-line">{state.error}</p>}
        {state.degraded.length > 0 && (
          <ul className="degraded" data-testid="run-degraded">
            {state.degraded.map((reason) => (
              <li key={reason}>Degraded: {reason}</li>
            ))}
          </ul>
        )}
      </section>
      <section className="agents">
        {state.agents.length === 0 && <p className="muted">Starting the team…</p>}
        {state.agents.map((agent) => (
          <AgentCard key={agent.id} agent={agent} state={state} />
        ))}
      </section>
      <div className="result-row">
        <VoteTally state={state} />
        <section className="card final" id="final-answer" data-testid="final-answer-card">
          <h2>
            Final answer
            {state.presenterId && (
              <span className="muted">
                {" "}
                by {state.presenterId}
                {state.finalAnswerLabel ? ` (${state.finalAnswerLabel})` : ""}
              </span>
            )}
          </h2>
          {state.finalAnswer === null ? (
            <p className="muted">
              {ended ? "No final answer." : "Not yet: the team is still working."}
            </p>
          ) : (
            <MarkdownView text={state.finalAnswer} testId="final-answer" />
          )}
        </section>
      </div>
      <nav className="tabs" role="tablist">
        {tabs.map(([id, label, key]) => (
          <button
            key={id}
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? "active" : ""}
            onClick={() => onTab(id)}
            data-testid={`tab-${id}`}
          >
            {label} <kbd>{key}</kbd>
          </button>
        ))}
      </nav>
      <section className="tab-body">
        {tab === "timeline" && <Timeline events={events} />}
        {tab === "answers" && <AnswersList state={state} />}
        {tab === "usage" && <UsageTable state={state} />}
        {tab === "workspace" && workspace}
      </section>
    </div>
  );
}
