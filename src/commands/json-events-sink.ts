/**
 * `coord --json-events "<question>"`: the run's event stream as NDJSON on stdout while the run
 * goes on (as `claude -p --output-format stream-json`), for scripts. One {@link CoordEvent} per
 * line, exactly as the line of `events.jsonl` (src/events/jsonl.ts `serializeEvent`), redacted
 * as the log is: deltas re-chunked so a key streamed in pieces is redacted whole
 * (src/store/stream-redactor.ts), then every known secret replaced. Nothing else goes to stdout;
 * progress and closing lines go to stderr (docs/scripting.md "The event stream as NDJSON").
 */
import { type CoordEvent, serializeEvent } from "../events/index.js";
import { redact } from "../redact.js";

/** A subscriber writing each event of one run as one line. */
export interface JsonEventsSink {
  /** Takes the next event; writes it (or holds a delta until its block goes on). */
  event(event: CoordEvent): void;
  /** Writes every event still held (called when the run is over). */
  flush(): void;
}

/**
 * Creates the sink.
 * @param write receives whole lines (newline included), e.g. stdout's write.
 */
export async function createJsonEventsSink(write: (line: string) => void): Promise<JsonEventsSink> {
  // A lazy import may name a module of store/ (eslint.config.js boundaries).
  const { createStreamRedactor } = await import("../store/stream-redactor.js");
  const stream = createStreamRedactor();
  const emit = (events: readonly CoordEvent[]) => {
    for (const event of events) write(redact(serializeEvent(event)));
  };
  return {
    event: (event) => emit(stream.push(event)),
    flush: () => emit(stream.flush()),
  };
}
