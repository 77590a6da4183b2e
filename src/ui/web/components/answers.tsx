import type { RunState } from "../../../session/index.js";
import { MarkdownView } from "./markdown-view.js";

/** Every answer of the run, newest first, with the votes it holds. */
export function AnswersList({ state }: { state: RunState }) {
  if (state.answers.length === 0) return <p className="muted">No answers yet.</p>;
  return (
    <div className="answers" data-testid="answers">
      {[...state.answers].reverse().map((answer) => {
        const votes = state.votes.filter((vote) => vote.label === answer.label);
        return (
          <details key={answer.label} className="card answer-card" open={state.answers.length <= 3}>
            <summary>
              <code>{answer.label}</code> by <strong>{answer.agentId}</strong>
              {votes.length > 0 && (
                <span className="muted">
                  {" "}
                  · {votes.length} vote{votes.length === 1 ? "" : "s"} (
                  {votes.map((vote) => vote.voterId).join(", ")})
                </span>
              )}
            </summary>
            <MarkdownView text={answer.content} />
          </details>
        );
      })}
    </div>
  );
}
