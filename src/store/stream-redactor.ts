/**
 * Redaction across stream chunks: a key a model streams in pieces
 * (`sk-pro` + `j-abc…` + `…xyz`) is in no single delta, so redacting each delta alone lets every
 * piece through. The run log writer passes its events through a {@link StreamRedactor} first.
 *
 * Per streamed block (`text`, `reasoning`, `final`, by `blockId`) the newest delta is held back
 * until the block's next delta or its end. When the next delta comes, the held one is released
 * with the block's pending text up to a safe cut — a point no secret can straddle: at least the
 * longest known secret's length before the end, never inside a run of key-like characters, never
 * right after `Bearer ` or `x-api-key:`, never inside a match — redacted; the rest waits. The
 * block's end releases the rest. Events keep their order, seq and count (a later event waits
 * behind a held delta); only delta texts are re-chunked within their block.
 */
import type { CoordEvent } from "../events/index.js";
import { longestKnownSecret, redact, secretSpans } from "../redact.js";

/** Characters a credential is made of (a cut never splits a run of them). */
const KEY_CHAR = /[A-Za-z0-9._~+/=-]/;
/** Text that announces a secret right after it: the cut goes before it. */
const SECRET_PREFIX_AT_END =
  /(?:\bBearer\s*|\b(?:x-goog-|x-)?api[-_]key\\?["']?\s*[:=]?\s*\\?["']?)$/i;
/** How much text before a cut is searched for {@link SECRET_PREFIX_AT_END} (characters). */
const PREFIX_WINDOW = 48;

/** Re-chunks and redacts the deltas of a run's event stream; see the module comment. */
export interface StreamRedactor {
  /**
   * Takes the next event of the run.
   * @returns The events that may be written now, oldest first (possibly none, possibly several).
   */
  push(event: CoordEvent): CoordEvent[];
  /** Releases everything still held (blocks that never ended), e.g. when the log closes. */
  flush(): CoordEvent[];
}

interface Entry {
  event: CoordEvent;
  ready: boolean;
}

interface Block {
  /** Text received and not yet given to a released delta. */
  pending: string;
  /** The block's newest delta, not released yet. */
  held: Entry | undefined;
}

/** Creates a redactor for one run's event stream. */
export function createStreamRedactor(): StreamRedactor {
  const queue: Entry[] = [];
  const blocks = new Map<string, Block>();

  const release = (entry: Entry, text: string): void => {
    entry.event = { ...entry.event, text: redact(text) } as CoordEvent;
    entry.ready = true;
  };

  const drain = (): CoordEvent[] => {
    const out: CoordEvent[] = [];
    while (queue.length > 0 && queue[0]!.ready) out.push(queue.shift()!.event);
    return out;
  };

  return {
    push(event) {
      const block = blockOf(event);
      if (block === undefined) {
        queue.push({ event, ready: true });
        return drain();
      }
      if (block.part === "delta") {
        const entry: Entry = { event, ready: false };
        queue.push(entry);
        const state = blocks.get(block.key) ?? { pending: "", held: undefined };
        blocks.set(block.key, state);
        state.pending += block.text;
        if (state.held !== undefined) {
          const cut = safeCut(state.pending);
          release(state.held, state.pending.slice(0, cut));
          state.pending = state.pending.slice(cut);
        }
        state.held = entry;
        return drain();
      }
      if (block.part === "end") {
        const state = blocks.get(block.key);
        if (state?.held !== undefined) release(state.held, state.pending);
        blocks.delete(block.key);
      }
      queue.push({ event, ready: true });
      return drain();
    },
    flush() {
      for (const state of blocks.values()) {
        if (state.held !== undefined) release(state.held, state.pending);
      }
      blocks.clear();
      return drain();
    },
  };
}

/** The streamed-block part an event is, keyed by kind and blockId; undefined for other events. */
function blockOf(
  event: CoordEvent,
): { key: string; part: "delta"; text: string } | { key: string; part: "end" } | undefined {
  const match = /^(text|reasoning|final)-(delta|end)$/.exec(event.type);
  if (match === null || !("blockId" in event)) return undefined;
  const key = `${match[1]}:${event.blockId}`;
  if (match[2] === "end") return { key, part: "end" };
  return "text" in event && typeof event.text === "string"
    ? { key, part: "delta", text: event.text }
    : undefined;
}

/**
 * The longest prefix of `text` (a block's pending text, more may follow) that can be redacted
 * on its own: no secret, whole or still arriving, crosses the returned index.
 */
export function safeCut(text: string): number {
  let cut = Math.max(0, text.length - longestKnownSecret());
  // A secret still arriving starts at or after text.length - its length + 1 > cut; the loop moves
  // the cut back past key-like runs, announcing prefixes and whole matches until none crosses it.
  const spans = secretSpans(text);
  for (;;) {
    const before = cut;
    while (
      cut > 0 &&
      KEY_CHAR.test(text[cut - 1]!) &&
      (cut === text.length || KEY_CHAR.test(text[cut]!))
    )
      cut--;
    const window = text.slice(Math.max(0, cut - PREFIX_WINDOW), cut);
    const prefix = SECRET_PREFIX_AT_END.exec(window);
    if (prefix !== null && prefix[0] !== "") cut -= prefix[0].length;
    for (const [start, end] of spans) if (start < cut && end > cut) cut = start;
    if (cut === before) return cut;
  }
}
