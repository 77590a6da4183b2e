/**
 * The chat's slash commands (docs/terminal.md "The chat"): parsing a line into a command, and the
 * text each command prints. Pure functions of what the chat passes in; the chat loop (chat.ts)
 * performs them.
 *
 * `/help`, `/quit` (`/exit`, `/q`), `/reset`, `/status`, `/config`, `/inspect [N|all]`,
 * `/sessions`.
 */
import { stringify } from "yaml";
import type { Config } from "../config/index.js";
import type { SessionRecord, TurnRecord } from "../sessions/index.js";
import { redactSecrets } from "../store/index.js";
import { formatSessionTable } from "./list-sessions.js";

/** A parsed slash command, or an unknown one (with its name). */
export type SlashCommand =
  | { name: "help" | "quit" | "reset" | "status" | "config" | "sessions" }
  | { name: "inspect"; turn: number | "all" | "last" }
  | { name: "unknown"; text: string; problem: string };

/** Parses `line` if it starts with `/`; undefined for a question. */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("/")) return undefined;
  const [head = "", ...rest] = trimmed.slice(1).split(/\s+/);
  const name = head.toLowerCase();
  const argument = rest.join(" ");
  switch (name) {
    case "help":
    case "?":
      return { name: "help" };
    case "quit":
    case "exit":
    case "q":
      return { name: "quit" };
    case "reset":
    case "clear":
      return { name: "reset" };
    case "status":
      return { name: "status" };
    case "config":
      return { name: "config" };
    case "sessions":
      return { name: "sessions" };
    case "inspect": {
      if (argument === "") return { name: "inspect", turn: "last" };
      if (argument === "all") return { name: "inspect", turn: "all" };
      const turn = Number(argument);
      if (Number.isInteger(turn) && turn > 0) return { name: "inspect", turn };
      return {
        name: "unknown",
        text: trimmed,
        problem: `/inspect ${argument}: expected a turn number or all`,
      };
    }
    default:
      return {
        name: "unknown",
        text: trimmed,
        problem: `unknown command /${head}: /help lists the commands`,
      };
  }
}

/** `/help`. */
export function helpText(): string {
  return [
    "Commands:",
    "  /help              this list",
    "  /inspect [N|all]   the answers and votes of turn N (default: the last turn)",
    "  /status            session, team, Refine and working-directory context",
    "  /config            the team's configuration (secrets redacted)",
    "  /sessions          recent sessions (continue one with coord --session-id ID)",
    "  /reset             clear the history: start a new session",
    "  /quit              leave (also /exit, /q, Ctrl+D)",
    "Keys:",
    "  Ctrl+C   clear the line; cancel the running turn (its partial work is kept); twice to quit",
    "  Ctrl+P   working-directory context for the next turn: off → read-only → read-write",
    "  Ctrl+R   Refine on (agents vote and refine) / off (one answer each, like --quick)",
    "  ↑ ↓      earlier lines",
  ].join("\n");
}

/** `/status`. */
export function statusText(options: {
  session: SessionRecord;
  historyMessages: number;
  config: Config;
  configPath: string | undefined;
  team: string;
  refine: boolean;
  cwdContext: string;
  cwd: string;
}): string {
  const { session } = options;
  return [
    `Session   ${session.id} (${session.turns} turn${session.turns === 1 ? "" : "s"}, ${options.historyMessages} messages of history)`,
    `Team      ${options.team}: ${options.config.agents.map((agent) => `${agent.id} (${agent.backend.type}/${agent.backend.model ?? agent.id})`).join(", ")}`,
    `Config    ${options.configPath ?? "quick setup (--backend/--model)"}`,
    `Refine    ${options.refine ? "on: agents answer, vote and refine" : "off: one answer each (--quick)"}`,
    `cwd       ${options.cwdContext === "off" ? "off" : `${options.cwd} (${options.cwdContext})`}`,
    `Logs      ${session.log_dir ?? "none yet"}`,
  ].join("\n");
}

/** `/config`: the resolved config as YAML, secrets redacted. */
export function configText(config: Config, configPath: string | undefined): string {
  return `# ${configPath ?? "quick setup"}\n${stringify(redactSecrets(config)).trimEnd()}`;
}

/** `/sessions`: the ten most recent sessions. */
export function sessionsText(sessions: readonly SessionRecord[]): string {
  if (sessions.length === 0) return "No sessions yet.";
  return formatSessionTable(sessions.slice(0, 10));
}

/**
 * `/inspect`: each answer (label, author, text) and each vote (voter → voted-for, reason) of the
 * chosen turns, then the winner and status.
 * @returns the text, or an error line when the turn does not exist.
 */
export function inspectText(
  turns: readonly TurnRecord[],
  which: number | "all" | "last",
): { ok: boolean; text: string } {
  if (turns.length === 0) return { ok: false, text: "No turns yet: ask a question first." };
  const chosen =
    which === "all"
      ? turns
      : which === "last"
        ? turns.slice(-1)
        : turns.filter((turn) => turn.turn === which);
  if (chosen.length === 0) {
    return { ok: false, text: `No turn ${String(which)}: turns are 1 to ${turns.at(-1)!.turn}.` };
  }
  return { ok: true, text: chosen.map(describeTurn).join("\n\n") };
}

function describeTurn(turn: TurnRecord): string {
  const lines = [`Turn ${turn.turn} (${turn.status}): ${turn.question}`];
  if (turn.answers.length === 0) lines.push("  no answers");
  for (const answer of turn.answers) {
    lines.push(`  ${answer.label} by ${answer.agent_id}:`);
    for (const line of answer.content.trim().split("\n")) lines.push(`    ${line}`);
  }
  if (turn.votes.length > 0) lines.push("  Votes:");
  for (const vote of turn.votes)
    lines.push(
      `    ${vote.voter_id} → ${vote.target_id} (${vote.label})${vote.reason ? `: ${vote.reason}` : ""}`,
    );
  lines.push(`  Winner: ${turn.winner ?? "none"}${turn.log_dir ? ` · log: ${turn.log_dir}` : ""}`);
  return lines.join("\n");
}
