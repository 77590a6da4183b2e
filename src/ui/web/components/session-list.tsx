import { useEffect, useState } from "react";
import type { SessionSummary } from "../../../server/web/web-host.js";

/** Earlier memory sessions (~/.coord/sessions.json), newest first; choosing one opens it. */
export function SessionList({
  currentId,
  onOpen,
  onNew,
  onClose,
}: {
  currentId: string | null;
  onOpen: (id: string) => void;
  onNew: () => void;
  onClose: () => void;
}) {
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch("api/sessions")
      .then(async (response) => (await response.json()) as SessionSummary[])
      .then(setSessions, (caught: Error) => setError(caught.message));
  }, []);
  return (
    <aside className="drawer" data-testid="session-list" aria-label="Sessions">
      <header>
        <h2>Sessions</h2>
        <button onClick={onNew} data-testid="new-session">
          New session <kbd>n</kbd>
        </button>
        <button className="close" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      {error && <p className="error-line">{error}</p>}
      {sessions === null && !error && <p className="muted">Loading…</p>}
      {sessions?.length === 0 && <p className="muted">No sessions yet.</p>}
      <ul>
        {sessions?.map((session) => (
          <li key={session.id}>
            <button
              className={`session-item${session.id === currentId ? " current" : ""}`}
              onClick={() => onOpen(session.id)}
              data-testid="session-item"
              data-session={session.id}
            >
              <span className="session-title">{session.title}</span>
              <span className="muted small">
                {new Date(session.startedAt).toLocaleString()} · {session.turns} turn
                {session.turns === 1 ? "" : "s"} · {session.status}
              </span>
              <span className="muted small">{session.models.join(", ")}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
