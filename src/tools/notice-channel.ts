/**
 * The runner's channel of {@link ToolNotice}s to the engine (an MCP server that failed, a snapshot
 * that could not be copied): notices sent before the engine subscribes are kept and delivered
 * first; notices sent after it unsubscribed (the run ended) are dropped.
 */
import type { NoticeSource, ToolNotice } from "./tool.js";

/** A {@link NoticeSource} plus the sending side. */
export interface NoticeChannel extends NoticeSource {
  send: (notice: ToolNotice) => void;
}

/** Creates a channel with one listener at a time. */
export function createNoticeChannel(): NoticeChannel {
  const kept: ToolNotice[] = [];
  let listener: ((notice: ToolNotice) => void) | undefined;
  let ended = false;
  return {
    send(notice) {
      if (listener) listener(notice);
      else if (!ended) kept.push(notice);
    },
    subscribe(next) {
      listener = next;
      for (const notice of kept.splice(0)) next(notice);
      return () => {
        if (listener === next) listener = undefined;
        ended = true;
      };
    },
  };
}
