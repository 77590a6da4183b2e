/**
 * One live run, many subscribers (docs/architecture.md "One stream"): the run's events
 * are reduced once into {@link RunState}, and every consumer — the log writer, the terminal and
 * plain displays, the server's response, a web socket, a viewer, tracing — is a subscriber that
 * receives each event with the state it leads to. Subscribers see the same events in the same
 * order; one that attaches late catches up from the start.
 *
 * Pure and synchronous: no IO, no clock. The runner (`src/runner/`) pumps the engine's events in
 * with {@link LiveRunSource.publish}.
 */
import type { CoordEvent } from "../events/index.js";
import { initialRunState, reduceRun, type RunState } from "./reducer.js";

/** Receives each event with the state after it. Must not throw (a throwing one is detached). */
export type RunSubscriber = (event: CoordEvent, state: RunState) => void;

/** Options of {@link LiveRun.subscribe}. */
export interface SubscribeOptions {
  /**
   * `start` (default): first receive every event published so far, each with the state after it
   * (recomputed for this subscriber alone), then the live ones. `now`: only events from now on.
   */
  from?: "start" | "now";
}

/** The consumers' side of a live run. */
export interface LiveRun {
  /** The state after the events published so far. */
  readonly state: RunState;
  /** Every event published so far, oldest first. */
  readonly events: readonly CoordEvent[];
  /** True once the run's stream ended (after `run-end`, or after an internal failure). */
  readonly ended: boolean;
  /**
   * Attaches a subscriber.
   * @returns a function that detaches it.
   */
  subscribe(subscriber: RunSubscriber, options?: SubscribeOptions): () => void;
  /** Resolves with the final state when the stream ends; rejects on an internal engine failure. */
  readonly done: Promise<RunState>;
}

/** The producer's side: publish events, then end. */
export interface LiveRunSource extends LiveRun {
  /** Reduces the event once and hands it to every subscriber, in the order they attached. */
  publish(event: CoordEvent): void;
  /** Ends the stream (`error`: the engine failed internally). */
  end(error?: unknown): void;
}

/** Options of {@link createLiveRun}. */
export interface LiveRunOptions {
  /** The reducer; default {@link reduceRun} (tests pass a counting one). */
  reduce?: (state: RunState, event: CoordEvent) => RunState;
  /** Told when a subscriber throws; that subscriber is then detached and the run goes on. */
  onSubscriberError?: (error: unknown) => void;
}

/** Creates the hub of one run. */
export function createLiveRun(options: LiveRunOptions = {}): LiveRunSource {
  const reduce = options.reduce ?? reduceRun;
  const events: CoordEvent[] = [];
  const subscribers = new Set<RunSubscriber>();
  let state = initialRunState();
  let ended = false;
  let settle: { resolve(state: RunState): void; reject(error: unknown): void } | undefined;
  const done = new Promise<RunState>((resolve, reject) => (settle = { resolve, reject }));
  // A run that fails internally rejects `done`; nobody awaiting it is not an unhandled rejection.
  done.catch(() => undefined);

  /** Hands one event to one subscriber; false when it threw (it is then detached). */
  const deliver = (subscriber: RunSubscriber, event: CoordEvent, after: RunState): boolean => {
    try {
      subscriber(event, after);
      return true;
    } catch (error) {
      subscribers.delete(subscriber);
      options.onSubscriberError?.(error);
      return false;
    }
  };

  return {
    get state() {
      return state;
    },
    events,
    get ended() {
      return ended;
    },
    done,
    subscribe(subscriber, subscribeOptions = {}) {
      if ((subscribeOptions.from ?? "start") === "start") {
        let caughtUp = initialRunState();
        for (const event of events) {
          caughtUp = reduce(caughtUp, event);
          if (!deliver(subscriber, event, caughtUp)) return () => undefined;
        }
      }
      if (!ended) subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    publish(event) {
      if (ended) throw new Error(`event ${event.type} published after the run's stream ended`);
      state = reduce(state, event);
      events.push(event);
      for (const subscriber of [...subscribers]) deliver(subscriber, event, state);
    },
    end(error) {
      if (ended) return;
      ended = true;
      subscribers.clear();
      if (error === undefined) settle?.resolve(state);
      else settle?.reject(error);
    },
  };
}
