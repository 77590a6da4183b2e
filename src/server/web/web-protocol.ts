/**
 * The browser UI's WebSocket protocol (`/ws` of `coord --web`; docs/web.md), defined once for
 * both sides: the server (web-app.ts) and the page (src/ui/web/live-feed.ts). Pure: no Node
 * modules, so the page bundles it.
 *
 * Messages are JSON objects, one per WebSocket message. The page sends `{type: "subscribe", key,
 * after}` (after: the last seq it holds of that run, 0 for none) and `{type: "unsubscribe", key}`;
 * the server sends `{type: "session", view}` on connect and whenever the session changes,
 * `{type: "event", key, event}` for each event with `seq > after` in order, and `{type: "error",
 * key?, message}`.
 */
import type { CoordEvent } from "../../events/index.js";
import type { RunKey, SessionView } from "./web-host.js";

/** A message the page sends. */
export type ClientMessage =
  { type: "subscribe"; key: RunKey; after: number } | { type: "unsubscribe"; key: RunKey };

/** A message the server sends. */
export type ServerMessage =
  | { type: "session"; view: SessionView }
  | { type: "event"; key: RunKey; event: CoordEvent }
  | { type: "error"; key?: RunKey; message: string };

/**
 * Reads a message from the page: undefined when it is not a string of JSON, names no run, or is
 * of another type. A missing, negative or non-numeric `after` reads as 0 (send from the start).
 */
export function parseClientMessage(data: unknown): ClientMessage | undefined {
  if (typeof data !== "string") return undefined;
  try {
    const message = JSON.parse(data) as Partial<ClientMessage> & { after?: unknown };
    if (typeof message.key !== "string") return undefined;
    if (message.type === "unsubscribe") return { type: "unsubscribe", key: message.key };
    if (message.type === "subscribe") {
      const after = typeof message.after === "number" && message.after >= 0 ? message.after : 0;
      return { type: "subscribe", key: message.key, after };
    }
  } catch {
    // unreadable
  }
  return undefined;
}

/** A server message as sent on the socket. */
export function serverMessageText(message: ServerMessage): string {
  return JSON.stringify(message);
}

/** A page message as sent on the socket. */
export function clientMessageText(message: ClientMessage): string {
  return JSON.stringify(message);
}

/** Reads a server message (the page trusts its own server: no checks beyond JSON). */
export function parseServerMessage(data: unknown): ServerMessage {
  return JSON.parse(String(data)) as ServerMessage;
}
