/**
 * The page's copy of runs: each run's events, oldest first, and the state the one reducer
 * (`reduceRun`, src/session/reducer.ts) builds from them — the same view model the terminal UI,
 * the log writer and `coord logs` use (CONTRIBUTING.md rule 3). No other state model.
 *
 * Events arrive with their run's `seq` (1, 2, 3, …). An event at or below the last seq held is
 * a repeat and is dropped; one past the next seq means a gap, reported so the feed asks again
 * from the last seq held. So a run is never missing or repeating an event. Pure: no DOM.
 */
import type { CoordEvent } from "../../events/index.js";
import { initialRunState, reduceRun, type RunState } from "../../session/index.js";

/** One run as the page holds it. */
export interface RunEntry {
  readonly events: readonly CoordEvent[];
  readonly state: RunState;
}

/** What {@link RunStore.add} did with an event. */
export type AddResult = "added" | "repeat" | "gap";

/** The runs of a page, by key; listeners hear of every change. */
export interface RunStore {
  get(key: string): RunEntry | undefined;
  /** The last seq held of a run; 0 for none. */
  lastSeq(key: string): number;
  add(key: string, event: CoordEvent): AddResult;
  /** Adds a whole run at once (the share viewer's logs). */
  load(key: string, events: readonly CoordEvent[]): void;
  subscribe: (listener: () => void) => () => void;
  /** Increases on every change (for React's useSyncExternalStore). */
  version: () => number;
}

const EMPTY: RunEntry = { events: [], state: initialRunState() };

/** Creates an empty store. */
export function createRunStore(): RunStore {
  const runs = new Map<string, RunEntry>();
  const listeners = new Set<() => void>();
  let version = 0;
  const changed = () => {
    version++;
    for (const listener of listeners) listener();
  };
  return {
    get: (key) => runs.get(key),
    lastSeq: (key) => runs.get(key)?.state.lastSeq ?? 0,
    add(key, event) {
      const entry = runs.get(key) ?? EMPTY;
      if (event.seq <= entry.state.lastSeq) return "repeat";
      if (event.seq !== entry.state.lastSeq + 1) return "gap";
      // The events array is appended in place (runs can hold thousands of deltas); the entry
      // object is new, so React sees the change.
      const events = entry === EMPTY ? [] : (entry.events as CoordEvent[]);
      events.push(event);
      runs.set(key, { events, state: reduceRun(entry.state, event) });
      changed();
      return "added";
    },
    load(key, events) {
      let state = initialRunState();
      for (const event of events) state = reduceRun(state, event);
      runs.set(key, { events, state });
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
}
