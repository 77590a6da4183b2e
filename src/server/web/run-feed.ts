/**
 * Feeds a run's events to one web socket subscriber from a given seq on (docs/web.md
 * "Reconnecting"): a run this process is running (or ran) from its {@link LiveRun}, whose late
 * subscribers catch up from the start synchronously before the live events; any other run from
 * its events.jsonl. Either way the subscriber gets each event with `seq > after` exactly once,
 * oldest first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseEventLog } from "../../events/index.js";
import type { LiveRun } from "../../session/index.js";
import type { RunEventListener } from "./web-host.js";

/** Where a run's events are: in memory while (or after) this process runs it, else on disk. */
export interface RunSource {
  live?: LiveRun | undefined;
  /** The run's attempt directory (`…/turn_<n>/attempt_<n>`), holding events.jsonl. */
  logDir?: string | null | undefined;
}

/**
 * Sends the events with `seq > after`, then (live runs) each new one.
 * @returns a function that stops the feed.
 * @throws the file system or EventLogError when a logged run's events.jsonl cannot be read.
 */
export async function feedRun(
  source: RunSource,
  after: number,
  listener: RunEventListener,
): Promise<() => void> {
  if (source.live) {
    return source.live.subscribe((event) => {
      if (event.seq > after) listener(event);
    });
  }
  if (!source.logDir) return () => undefined;
  const path = join(source.logDir, "events.jsonl");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return () => undefined;
    throw error;
  }
  for (const event of parseEventLog(text, path).events) if (event.seq > after) listener(event);
  return () => undefined;
}
