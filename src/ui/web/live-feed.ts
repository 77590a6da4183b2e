/**
 * The live page's WebSocket to `coord --web` (protocol: src/server/web/web-protocol.ts, shared
 * with the server). Subscribes
 * to runs with the last seq the {@link RunStore} holds, so after a dropped connection the server
 * sends only what followed; reconnects with a growing delay (0.5 s up to 5 s).
 */
import type { SessionView } from "../../server/web/web-host.js";
import { clientMessageText, parseServerMessage } from "../../server/web/web-protocol.js";
import type { RunStore } from "./run-store.js";

/** Connection state shown in the header. */
export type FeedStatus = "connecting" | "open" | "reconnecting";

/** The page's side of the socket. */
export interface LiveFeed {
  /** Streams a run into the store (again after every reconnect). */
  watch(key: string): void;
  status(): FeedStatus;
  close(): void;
}

/** Options of {@link connectLiveFeed}. */
export interface LiveFeedOptions {
  url: string;
  store: RunStore;
  onSession(view: SessionView): void;
  onStatus(status: FeedStatus): void;
  onError(message: string): void;
}

/** Opens the socket. */
export function connectLiveFeed(options: LiveFeedOptions): LiveFeed {
  const watched = new Set<string>();
  let socket: WebSocket | undefined;
  let status: FeedStatus = "connecting";
  let delay = 500;
  let closed = false;
  const setStatus = (next: FeedStatus) => {
    status = next;
    options.onStatus(next);
  };
  const subscribe = (key: string) => {
    if (socket?.readyState === WebSocket.OPEN) {
      socket.send(clientMessageText({ type: "subscribe", key, after: options.store.lastSeq(key) }));
    }
  };
  const connect = () => {
    const ws = new WebSocket(options.url);
    socket = ws;
    ws.onopen = () => {
      delay = 500;
      setStatus("open");
      for (const key of watched) subscribe(key);
    };
    ws.onmessage = (message) => {
      const data = parseServerMessage(message.data);
      if (data.type === "session") options.onSession(data.view);
      else if (data.type === "error") options.onError(data.message);
      else if (options.store.add(data.key, data.event) === "gap") subscribe(data.key);
    };
    ws.onclose = () => {
      if (socket !== ws || closed) return;
      setStatus("reconnecting");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  connect();
  return {
    watch(key) {
      if (watched.has(key)) return;
      watched.add(key);
      subscribe(key);
    },
    status: () => status,
    close() {
      closed = true;
      socket?.close();
    },
  };
}
