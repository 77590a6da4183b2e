import type { CoordEvent } from "../../../events/index.js";
import { createTraceFormatter, type TraceFormatter } from "../../plain/trace-lines.js";
import { duration } from "./format.js";

/** One line of the timeline: the trace line of src/ui/plain/trace-lines.ts, with its time. */
interface TimelineLine {
  atMs: number;
  actor: string;
  text: string;
  kind: string;
}

/**
 * The run as a timeline: the same labelled lines as `--no-display` and the server's
 * `reasoning_content` (`[alice] New answer agent1.1: …`, `[orchestrator] Vote: …`), each with
 * its time since the start. Lines are built incrementally per run (events only grow).
 */
const cache = new WeakMap<
  readonly CoordEvent[],
  { formatter: TraceFormatter; seen: number; lines: TimelineLine[] }
>();

function linesOf(events: readonly CoordEvent[]): TimelineLine[] {
  let entry = cache.get(events);
  if (!entry) {
    entry = { formatter: createTraceFormatter({ maxTextLength: 600 }), seen: 0, lines: [] };
    cache.set(events, entry);
  }
  const start = events[0] ? Date.parse(events[0].time) : 0;
  for (; entry.seen < events.length; entry.seen++) {
    const event = events[entry.seen]!;
    for (const line of entry.formatter.push(event)) {
      const match = /^\[([^\]]+)\] ([\s\S]*)$/.exec(line);
      entry.lines.push({
        atMs: Date.parse(event.time) - start,
        actor: match?.[1] ?? "",
        text: match?.[2] ?? line,
        kind: event.type,
      });
    }
  }
  return entry.lines;
}

export function Timeline({ events }: { events: readonly CoordEvent[] }) {
  const lines = linesOf(events);
  if (lines.length === 0) return <p className="muted">Nothing has happened yet.</p>;
  return (
    <ol className="timeline" data-testid="timeline">
      {lines.map((line, index) => (
        <li key={index} className={`tl-${line.kind}`}>
          <span className="tl-time">+{duration(Math.max(0, line.atMs))}</span>
          <span
            className={`tl-actor ${line.actor === "orchestrator" || line.actor === "system" ? "sys" : ""}`}
          >
            {line.actor}
          </span>
          <span
            className="tl-text"
            title={line.text.length > 300 ? "click to show all" : undefined}
            onClick={(event) => event.currentTarget.classList.toggle("open")}
          >
            {line.text}
          </span>
        </li>
      ))}
    </ol>
  );
}
