import { useEffect, useMemo, useState } from "react";
import { MarkdownView } from "./components/markdown-view.js";
import { type RunTab, RunView } from "./components/run-view.js";
import { useShortcuts } from "./use-shortcuts.js";
import { createRunStore } from "./run-store.js";
import { loadSharedSession, type SharedSession } from "./share-gist.js";

/**
 * The share viewer (`{viewer_url}/?gist=<id>`): a session shared with `coord export`, read from
 * its gist and rendered with the live page's components from the same reducer. No login.
 */
export function ShareApp() {
  const id = new URLSearchParams(location.search).get("gist");
  const [session, setSession] = useState<SharedSession | null>(null);
  const [error, setError] = useState<string | null>(
    id
      ? null
      : "No gist in the address: open a link of the form …/?gist=<id> (coord export prints one).",
  );
  const [selected, setSelected] = useState(0);
  const [tab, setTab] = useState<RunTab>("timeline");
  const store = useMemo(() => createRunStore(), []);

  useEffect(() => {
    if (!id) return;
    loadSharedSession(id).then(
      (loaded) => {
        for (const attempt of loaded.attempts) store.load(attempt.key, attempt.events);
        setSession(loaded);
        setSelected(loaded.attempts.length - 1);
        document.title = `coord · ${loaded.manifest.question}`;
      },
      (caught: Error) => setError(caught.message),
    );
  }, [id, store]);

  const attempts = session?.attempts ?? [];
  useShortcuts({
    t: () => setTab("timeline"),
    a: () => setTab("answers"),
    u: () => setTab("usage"),
    f: () => document.getElementById("final-answer")?.scrollIntoView({ behavior: "smooth" }),
    "[": () => setSelected((index) => Math.max(0, index - 1)),
    "]": () => setSelected((index) => Math.min(attempts.length - 1, index + 1)),
  });

  const attempt = attempts[selected];
  const entry = attempt ? store.get(attempt.key) : undefined;
  return (
    <div className="app share">
      <header className="top">
        <span className="brand">coord</span>
        <span className="session-name">
          shared session{session ? ` · ${session.manifest.log_name}` : ""}
        </span>
        <span className="spacer" />
        {session && (
          <span className="muted small">
            shared {new Date(session.manifest.created_at).toLocaleString()} · coord{" "}
            {session.manifest.coord_version}
          </span>
        )}
      </header>
      <div className="body">
        {attempts.length > 1 && (
          <nav className="turns" aria-label="Turns">
            {attempts.map((item, index) => (
              <button
                key={item.key}
                className={index === selected ? "active" : ""}
                onClick={() => setSelected(index)}
                data-testid="turn-item"
                title={item.question}
              >
                <span className="turn-no">
                  Turn {item.turn}
                  {attempts.some(
                    (other) => other.turn === item.turn && other.attempt !== item.attempt,
                  )
                    ? ` · attempt ${item.attempt}`
                    : ""}
                </span>
                <span className="turn-q">{item.question}</span>
              </button>
            ))}
          </nav>
        )}
        <main>
          {error && (
            <div className="empty" data-testid="share-error">
              <h1>Cannot show this session</h1>
              <p className="error-line">{error}</p>
            </div>
          )}
          {!error && !session && (
            <p className="muted" data-testid="share-loading">
              Loading the shared session…
            </p>
          )}
          {attempt && entry && (
            <>
              <RunView
                key={attempt.key}
                entry={entry}
                question={attempt.question}
                tab={tab}
                onTab={setTab}
              />
              <details className="card files" data-testid="run-files">
                <summary>Run files</summary>
                {Object.entries(attempt.files).map(([path, content]) => (
                  <FileBlock key={path} path={path} content={content} />
                ))}
                {attempt.skipped.length > 0 && (
                  <p className="muted small" data-testid="skipped">
                    Not shared:{" "}
                    {attempt.skipped.map((item) => `${item.path} (${item.reason})`).join(", ")}
                  </p>
                )}
              </details>
              {Object.keys(attempt.workspace).length > 0 && (
                <details className="card files" data-testid="shared-workspace">
                  <summary>Workspace files ({Object.keys(attempt.workspace).length})</summary>
                  {Object.entries(attempt.workspace).map(([path, content]) => (
                    <FileBlock key={path} path={path} content={content} />
                  ))}
                </details>
              )}
              {session?.analysis && (
                <details className="card files" data-testid="analysis">
                  <summary>Analysis report</summary>
                  <MarkdownView text={session.analysis} />
                </details>
              )}
            </>
          )}
        </main>
      </div>
    </div>
  );
}

/** One shared file, folded: Markdown rendered, anything else as text. */
function FileBlock({ path, content }: { path: string; content: string }) {
  return (
    <details data-path={path}>
      <summary>
        <code>{path}</code>
      </summary>
      {/\.(md|markdown)$/i.test(path) ? <MarkdownView text={content} /> : <pre>{content}</pre>}
    </details>
  );
}
