/**
 * JSON Lines form of the event stream (events.jsonl): one event object per line, UTF-8,
 * newline-terminated, append-only. CONTRIBUTING.md rule 2 and 11: the reader accepts only schema
 * versions it knows and says which version it found otherwise.
 */
import { StoredFileError } from "../errors.js";
import { coordEventSchema, EVENT_SCHEMA_VERSION, type CoordEvent } from "./events.js";
import { upgradeV1Event } from "./upgrade-v1.js";

/** Schema versions this reader accepts; older ones are upgraded to {@link EVENT_SCHEMA_VERSION}. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, EVENT_SCHEMA_VERSION];

/**
 * Thrown when a stored event cannot be read: unknown schema version or malformed content (exit
 * code 1, like every unreadable stored file).
 */
export class EventLogError extends StoredFileError {
  constructor(
    message: string,
    /** 1-based line number in the file, when known. */
    readonly line?: number,
  ) {
    super(message);
    this.name = "EventLogError";
  }
}

/** Serializes one event as a single JSON line, newline included. */
export function serializeEvent(event: CoordEvent): string {
  return JSON.stringify(event) + "\n";
}

/** Result of {@link parseEventLog}: the events read, and whether the file ended mid-line. */
export interface ParsedEventLog {
  events: CoordEvent[];
  /** True when the last line was cut off (a crash while writing); the events before it stand. */
  truncated: boolean;
}

/**
 * Parses the text of an events.jsonl file.
 *
 * @param text the whole file content.
 * @param source the file path, used in error messages.
 * Events of an older schema version ({@link READABLE_SCHEMA_VERSIONS}) are returned upgraded to
 * {@link EVENT_SCHEMA_VERSION} (see `./upgrade-v1.ts`).
 *
 * @throws EventLogError when a line has a schema version this coord does not read ("written by a
 *   newer coord") or a complete line is not a valid event.
 */
export function parseEventLog(text: string, source = "events.jsonl"): ParsedEventLog {
  const lines = text.split("\n");
  const events: CoordEvent[] = [];
  let truncated = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    const isLast = index === lines.length - 1; // no newline after it: possibly cut off
    if (isLast && !isCompleteJson(line)) {
      truncated = true;
      break;
    }
    events.push(parseEventLine(line, source, index + 1));
  }
  return { events, truncated };
}

/** True when `line` parses as JSON (a last line without its newline may be cut off). */
function isCompleteJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses one complete line of an events.jsonl file (for readers that follow a file as it
 * grows, such as `coord viewer`).
 *
 * @param line the line, without its newline.
 * @param source the file path, for error messages.
 * @param lineNumber its 1-based line number, for error messages.
 * @returns the event, upgraded to {@link EVENT_SCHEMA_VERSION}.
 * @throws EventLogError when the line is not JSON, has a schema version this coord does not
 *   read, or is not a valid event.
 */
export function parseEventLine(line: string, source: string, lineNumber: number): CoordEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new EventLogError(`${source}:${lineNumber}: not valid JSON`, lineNumber);
  }
  const version = (raw as { v?: unknown } | null)?.v;
  if (typeof version !== "number" || !READABLE_SCHEMA_VERSIONS.includes(version)) {
    throw new EventLogError(
      `${source}:${lineNumber}: event schema version ${JSON.stringify(version)} is not supported ` +
        `(this coord reads versions ${READABLE_SCHEMA_VERSIONS.join(" and ")}); upgrade coord to read this log`,
      lineNumber,
    );
  }
  const parsed = coordEventSchema().safeParse(
    version === 1 ? upgradeV1Event(raw as Record<string, unknown>) : raw,
  );
  if (!parsed.success) {
    throw new EventLogError(
      `${source}:${lineNumber}: invalid event: ${parsed.error.issues[0]?.message ?? "unknown"}`,
      lineNumber,
    );
  }
  return parsed.data;
}
