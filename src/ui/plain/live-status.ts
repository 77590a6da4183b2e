/**
 * A compact live status block for terminals (stderr is a TTY): one line per agent with its
 * status and latest text, and a header with the phase, elapsed time, tokens and cost (USD, or
 * "cost unknown" once any model call had no price), failed model calls and a budget reached. Renders only from the reducer's state
 * (CONTRIBUTING.md rule 3); redraws are throttled. The full Ink interface is a separate component;
 * this is the dependable fallback that never touches stdout.
 */
import { agentStatusText, type AgentState, costUsdOf, type RunState } from "../../session/index.js";
import { formatCost } from "./number-format.js";
import { oneLine } from "./trace-lines.js";

/** Where the block is drawn: a TTY stream. */
export interface TerminalLike {
  write(text: string): boolean;
  columns?: number;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function agentLine(agent: AgentState, width: number, frame: number): string {
  const busy =
    agent.status === "thinking" || agent.status === "tool" || agent.status === "presenting";
  const mark = busy
    ? SPINNER[frame % SPINNER.length]!
    : agent.status === "removed" || agent.status === "error"
      ? "✗"
      : agent.status === "voted" || agent.status === "answered" || agent.status === "done"
        ? "✓"
        : "·";
  // The same words as the terminal's panels and the page's cards (session/agent-status.ts).
  const status = agentStatusText(agent);
  const head = ` ${mark} ${agent.id} [${agent.model}] ${status}`;
  const latest = busy
    ? oneLine(agent.text || agent.reasoning).slice(-Math.max(0, width - head.length - 4))
    : "";
  const line = latest ? `${head}  ${latest}` : head;
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

function headerLine(state: RunState, now: number): string {
  const elapsed = state.startedAt !== null ? ((now - state.startedAt) / 1000).toFixed(1) : "0.0";
  const usage = state.totals.usage;
  const tokens = usage.inputTokens + usage.outputTokens;
  const votes = state.votes.length;
  const cost = costUsdOf(usage);
  const costText = cost === null ? "cost unknown" : formatCost(cost);
  const failed =
    usage.failedCalls > 0
      ? ` · ${usage.failedCalls} of ${usage.modelCalls} model calls failed`
      : "";
  const budget = state.limitsReached.some((limit) => limit.scope === "run")
    ? " · budget reached"
    : "";
  return `coord · ${state.mode ?? "…"} · ${state.phase} · ${state.answers.length} answers · ${votes} votes · ${elapsed} s · ${tokens.toLocaleString("en-US")} tokens · ${costText}${failed}${budget}`;
}

/** The live block: call `update(state)` on every event, `clear()` before printing anything else. */
export interface LiveStatus {
  update(state: RunState): void;
  /** Erases the block and stops redrawing. */
  clear(): void;
}

/**
 * @param out a TTY stream (stderr).
 * @param options.intervalMs minimum ms between redraws. Default 80.
 * @param options.now clock for the elapsed time; default Date.now.
 */
export function createLiveStatus(
  out: TerminalLike,
  options: { intervalMs?: number; now?: () => number } = {},
): LiveStatus {
  const intervalMs = options.intervalMs ?? 80;
  const now = options.now ?? Date.now;
  let drawnLines = 0;
  let lastDraw = 0;
  let latest: RunState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let frame = 0;
  let stopped = false;

  const erase = () => {
    if (drawnLines > 0) out.write(`\x1b[${drawnLines}F\x1b[0J`);
    drawnLines = 0;
  };
  const draw = () => {
    timer = undefined;
    if (stopped || !latest) return;
    const width = Math.max(40, (out.columns ?? 100) - 1);
    const lines = [
      headerLine(latest, now()),
      ...latest.agents.map((agent) => agentLine(agent, width, frame)),
    ];
    frame++;
    erase();
    out.write(lines.map((line) => line.slice(0, width)).join("\n") + "\n");
    drawnLines = lines.length;
    lastDraw = now();
  };

  return {
    update(state) {
      latest = state;
      if (stopped) return;
      // Keep the spinner and clock moving while a model call streams nothing.
      ticker ??= setInterval(() => timer ?? draw(), 250);
      ticker.unref?.();
      if (timer) return;
      const wait = Math.max(0, intervalMs - (now() - lastDraw));
      timer = setTimeout(draw, wait);
      timer.unref?.();
    },
    clear() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (ticker) clearInterval(ticker);
      timer = undefined;
      erase();
    },
  };
}
