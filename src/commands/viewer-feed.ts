/**
 * The viewer's event pipeline (spec §4.2 `coord viewer`): the events of one attempt's
 * events.jsonl — those already written, paced by `--replay-speed` on the injected clock, then
 * those the run appends while it goes on — published into one live run
 * (src/session/live-run.ts), so every display is a subscriber fed by the one reducer, exactly as
 * during the run itself (docs/architecture.md "One stream": a replay is events.jsonl fed
 * through the same reducer).
 */
import type { Clock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import {
  createLiveRun,
  createReplayPace,
  type LiveRunSource,
  type RunState,
} from "../session/index.js";
import { openEventLog } from "../store/index.js";
import type { ViewerActivity } from "../ui/terminal/index.js";

/** Options of {@link feedViewer}. */
export interface ViewerFeedOptions {
  /** The attempt's events.jsonl. */
  eventsPath: string;
  /** `--replay-speed`: undefined is instant. Applies to the events written before the viewer started. */
  speed: number | undefined;
  /** Follow a run that has no `run-end` yet (false: `--no-follow`). */
  follow: boolean;
  clock: Clock;
  /** Stops the replay or the following (the user quit). */
  signal?: AbortSignal;
  /** Poll interval while following, ms. */
  pollMs?: number;
  /**
   * While following: resolves true once the process writing the log is gone without a
   * `run-end` (`kill -9`, a crash); the follow then ends (see openEventLog).
   */
  writerGone?: () => Promise<boolean>;
}

/** What the displays are told. */
export interface ViewerSink {
  /** Each event with the state after it (the live run's subscriber). */
  event(event: CoordEvent, state: RunState): void;
  /** What the viewer is doing now. */
  activity(activity: ViewerActivity): void;
}

/** The pipeline, ready to run. */
export interface ViewerFeed {
  /** Epoch ms for the live view's elapsed time: the replay's recorded time, then the clock. */
  now: () => number;
  /**
   * Feeds `sink` every event; resolves with the final state once every event is shown (or the
   * signal aborted).
   * @throws EventLogError for a line appended later that is not an event (names file and line).
   */
  run(sink: ViewerSink): Promise<RunState>;
}

/**
 * Reads the events written so far and prepares the replay.
 * @throws EventLogError for an unreadable events.jsonl (names file and line).
 */
export async function openViewerFeed(options: ViewerFeedOptions): Promise<ViewerFeed> {
  const log = await openEventLog(options.eventsPath, {
    clock: options.clock,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.writerGone ? { writerGone: options.writerGone } : {}),
  });
  const pace = createReplayPace(log.initial, {
    speed: options.speed,
    clock: options.clock,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let following = false;
  /** Set when the follow ended: the time shown stops there. */
  let stoppedAt: number | undefined;
  // A function, not a narrowed property: the signal can abort across every await below.
  const aborted = () => options.signal?.aborted === true;

  const run = async (live: LiveRunSource, sink: ViewerSink): Promise<RunState> => {
    sink.activity({ kind: "replaying", speed: options.speed });
    for await (const event of pace.events()) live.publish(event);
    if (aborted()) return live.state;
    if (log.ended || !options.follow) {
      sink.activity({ kind: "finished", complete: log.ended });
      return live.state;
    }
    following = true;
    sink.activity({ kind: "following", lastEventAt: options.clock.now() });
    for await (const event of log.follow()) {
      live.publish(event);
      sink.activity({ kind: "following", lastEventAt: options.clock.now() });
    }
    if (aborted()) return live.state;
    if (log.writerGone) {
      stoppedAt = options.clock.now();
      sink.activity({ kind: "finished", complete: false, writerGone: true });
    } else {
      sink.activity({ kind: "finished", complete: true });
    }
    return live.state;
  };

  return {
    now: () => stoppedAt ?? (following ? options.clock.now() : pace.logTime()),
    async run(sink) {
      const live = createLiveRun();
      live.subscribe((event, state) => sink.event(event, state));
      try {
        return await run(live, sink);
      } finally {
        live.end();
      }
    },
  };
}
