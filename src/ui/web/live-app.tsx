import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { SessionView } from "../../server/web/web-host.js";
import { HelpOverlay } from "./components/help-overlay.js";
import { cost, tokenLine } from "./components/format.js";
import { type RunTab, RunView } from "./components/run-view.js";
import { SessionList } from "./components/session-list.js";
import { WorkspaceBrowser } from "./components/workspace-browser.js";
import { connectLiveFeed, type FeedStatus, type LiveFeed } from "./live-feed.js";
import { createRunStore, type RunEntry } from "./run-store.js";
import { initialRunState } from "../../session/index.js";
import { useShortcuts } from "./use-shortcuts.js";

const EMPTY_ENTRY: RunEntry = { events: [], state: initialRunState() };

async function post(path: string, body?: unknown): Promise<SessionView> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const data = (await response.json()) as SessionView & { error?: string };
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

/** Re-renders at most once per animation frame however fast events arrive. */
function useStoreVersion(store: ReturnType<typeof createRunStore>): number {
  const subscribe = useCallback(
    (notify: () => void) => {
      let frame = 0;
      const unsubscribe = store.subscribe(() => {
        if (frame === 0)
          frame = requestAnimationFrame(() => {
            frame = 0;
            notify();
          });
      });
      return () => {
        cancelAnimationFrame(frame);
        unsubscribe();
      };
    },
    [store],
  );
  return useSyncExternalStore(subscribe, store.version);
}

/** The live page of `coord --web`: the session's turns, each a run streamed over the socket. */
export function LiveApp() {
  const store = useMemo(() => createRunStore(), []);
  const feed = useRef<LiveFeed | null>(null);
  const [view, setView] = useState<SessionView | null>(null);
  const [status, setStatus] = useState<FeedStatus>("connecting");
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState<RunTab>("timeline");
  const [help, setHelp] = useState(false);
  const [sessions, setSessions] = useState(false);
  const [question, setQuestion] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useStoreVersion(store);

  useEffect(() => {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${location.pathname.replace(/[^/]*$/, "")}ws`;
    const connection = connectLiveFeed({
      url,
      store,
      onSession: setView,
      onStatus: setStatus,
      onError: setError,
    });
    feed.current = connection;
    return () => connection.close();
  }, [store]);

  // Watch every turn of the session; follow the newest one when a turn is added.
  const turnCount = view?.turns.length ?? 0;
  useEffect(() => {
    if (!view) return;
    for (const turn of view.turns) feed.current?.watch(turn.key);
    setSelected(view.turns.at(-1)?.key ?? null);
  }, [view?.id, turnCount]); // a new turn or another session: show its newest turn

  const turns = view?.turns ?? [];
  const index = turns.findIndex((turn) => turn.key === selected);
  const turn = index >= 0 ? turns[index] : undefined;
  const entry = (turn && store.get(turn.key)) ?? EMPTY_ENTRY;

  const act = async (action: () => Promise<SessionView>) => {
    setError(null);
    try {
      setView(await action());
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  const ask = async () => {
    const text = question.trim();
    if (text === "" || view?.busy || sending) return;
    setSending(true);
    await act(() => post("api/ask", { question: text }));
    setSending(false);
    setQuestion("");
  };
  const openSession = (id: string) => {
    setSessions(false);
    void act(() => post(`api/sessions/${encodeURIComponent(id)}/open`));
  };
  const newSession = () => {
    setSessions(false);
    void act(() => post("api/sessions/new"));
    input.current?.focus();
  };

  useShortcuts({
    "?": () => setHelp((shown) => !shown),
    "/": () => input.current?.focus(),
    f: () => document.getElementById("final-answer")?.scrollIntoView({ behavior: "smooth" }),
    t: () => setTab("timeline"),
    a: () => setTab("answers"),
    u: () => setTab("usage"),
    w: () => setTab("workspace"),
    "[": () => index > 0 && setSelected(turns[index - 1]!.key),
    "]": () => index >= 0 && index < turns.length - 1 && setSelected(turns[index + 1]!.key),
    s: () => view?.askable !== false && setSessions((shown) => !shown),
    n: () => view?.askable !== false && newSession(),
    Escape: () => {
      setHelp(false);
      setSessions(false);
    },
  });

  const totals = entry.state.totals;
  return (
    <div className="app">
      <header className="top">
        <span className="brand">coord</span>
        <span className="session-name" data-testid="session-id" title={view?.title}>
          {view?.id ?? "new session"}
        </span>
        <span className={`conn ${status}`} data-testid="connection" title={`connection ${status}`}>
          {status === "open" ? "live" : status}
        </span>
        <span className="spacer" />
        {turn && (
          <span className="totals muted">
            {tokenLine(totals)} · {cost(totals)}
          </span>
        )}
        {view?.askable !== false && (
          <button onClick={() => setSessions((shown) => !shown)} data-testid="open-sessions">
            Sessions <kbd>s</kbd>
          </button>
        )}
        <button onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
          <kbd>?</kbd>
        </button>
      </header>
      <div className="body">
        {turns.length > 1 && (
          <nav className="turns" aria-label="Turns">
            {turns.map((item) => (
              <button
                key={item.key}
                className={item.key === selected ? "active" : ""}
                onClick={() => setSelected(item.key)}
                data-testid="turn-item"
                title={item.question}
              >
                <span className="turn-no">Turn {item.turn}</span>
                <span className="turn-q">{item.question}</span>
                <span className={`dot ${item.status}`} />
              </button>
            ))}
          </nav>
        )}
        <main>
          {turn ? (
            <RunView
              key={turn.key}
              entry={entry}
              question={turn.question}
              tab={tab}
              onTab={setTab}
              workspace={
                <WorkspaceBrowser
                  key={turn.key}
                  runKey={turn.key}
                  live={turn.status === "running"}
                />
              }
            />
          ) : (
            <div className="empty" data-testid="empty-session">
              <h1>Ask the team</h1>
              <p className="muted">
                The agents answer in parallel, read each other's answers, vote, and the winner
                writes the final answer. Type a question below; press <kbd>?</kbd> for shortcuts.
              </p>
            </div>
          )}
        </main>
      </div>
      {view?.askable === false ? (
        <footer className="ask muted" data-testid="read-only">
          {view.title}: this page shows one run and takes no questions.
        </footer>
      ) : (
        <footer className="ask">
          {error && (
            <p className="error-line" data-testid="error">
              {error}
            </p>
          )}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void ask();
            }}
          >
            <textarea
              ref={input}
              value={question}
              rows={2}
              placeholder={
                view?.busy
                  ? "The team is working on the current turn…"
                  : turns.length > 0
                    ? "Ask a follow-up (the team sees this session's history)"
                    : "Ask the team a question"
              }
              onChange={(event) => setQuestion(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  void ask();
                }
              }}
              data-testid="question-input"
              aria-label="Question"
            />
            <button
              type="submit"
              disabled={!view || view.busy || sending || question.trim() === ""}
              data-testid="ask"
            >
              {view?.busy ? "Working…" : "Ask"}
            </button>
          </form>
        </footer>
      )}
      {sessions && (
        <SessionList
          currentId={view?.id ?? null}
          onOpen={openSession}
          onNew={newSession}
          onClose={() => setSessions(false)}
        />
      )}
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}
