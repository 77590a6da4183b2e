/**
 * Reads schema version 1 events (coord 0.1's events.jsonl) as version 2 (CONTRIBUTING.md rule 11:
 * every released log version stays readable). The mapping is one event to one event, so `seq` and
 * event counts are unchanged and a v1 log replays to the same view model as before:
 *
 * - `agent-round-start` is `round-start` (same fields);
 * - `text-delta` / `reasoning-delta` get the block id `v1:<agentId>:<round>:<kind>` (v1 had one
 *   block of each kind per round and no start/end events);
 * - `final-start` / `final-delta` get the block id `v1:final`.
 *
 * Version 1 has no `*-end`, `retry` or `warning` events; readers must not require them.
 */

/** A parsed JSON line of a v1 log (validated against the v2 schema after the upgrade). */
type RawEvent = Record<string, unknown>;

/** Returns the v2 form of a v1 event object (a new object; the input is not changed). */
export function upgradeV1Event(raw: RawEvent): RawEvent {
  const event: RawEvent = { ...raw, v: 2 };
  switch (raw.type) {
    case "agent-round-start":
      event.type = "round-start";
      break;
    case "text-delta":
    case "reasoning-delta":
      event.blockId = `v1:${String(raw.agentId)}:${String(raw.round)}:${String(raw.type).replace("-delta", "")}`;
      break;
    case "final-start":
    case "final-delta":
      event.blockId = "v1:final";
      break;
    default:
      break;
  }
  return event;
}
