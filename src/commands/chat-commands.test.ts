import { describe, expect, test } from "vitest";
import type { TurnRecord } from "../sessions/index.js";
import { helpText, inspectText, parseSlashCommand } from "./chat-commands.js";

describe("slash commands", () => {
  test("parse names, aliases and arguments", () => {
    expect(parseSlashCommand("what is 2+2?")).toBeUndefined();
    expect(parseSlashCommand("/help")).toEqual({ name: "help" });
    for (const quit of ["/quit", "/exit", "/q", "/QUIT"])
      expect(parseSlashCommand(quit)).toEqual({ name: "quit" });
    expect(parseSlashCommand("/reset")).toEqual({ name: "reset" });
    expect(parseSlashCommand("/status")).toEqual({ name: "status" });
    expect(parseSlashCommand("/config")).toEqual({ name: "config" });
    expect(parseSlashCommand("/sessions")).toEqual({ name: "sessions" });
    expect(parseSlashCommand("/inspect")).toEqual({ name: "inspect", turn: "last" });
    expect(parseSlashCommand("/inspect 2")).toEqual({ name: "inspect", turn: 2 });
    expect(parseSlashCommand("/inspect all")).toEqual({ name: "inspect", turn: "all" });
    expect(parseSlashCommand("/inspect two")).toMatchObject({ name: "unknown" });
    expect(parseSlashCommand("/frobnicate")).toMatchObject({
      name: "unknown",
      problem: "unknown command /frobnicate: /help lists the commands",
    });
  });

  test("/help names every command and key", () => {
    const text = helpText();
    for (const word of [
      "/inspect",
      "/status",
      "/config",
      "/sessions",
      "/reset",
      "/quit",
      "Ctrl+P",
      "Ctrl+R",
      "Ctrl+C",
    ])
      expect(text).toContain(word);
  });

  test("/inspect shows a turn's answers and votes", () => {
    const turns: TurnRecord[] = [
      {
        turn: 1,
        question: "What is 2+2?",
        answer: "4",
        winner: "alice",
        status: "completed",
        started_at: "",
        ended_at: "",
        log_dir: "/logs/turn_1/attempt_1",
        answers: [
          { label: "agent1.1", agent_id: "alice", content: "4" },
          { label: "agent2.1", agent_id: "bob", content: "four" },
        ],
        votes: [{ voter_id: "bob", target_id: "alice", label: "agent1.1", reason: "shorter" }],
      },
    ];
    const { ok, text } = inspectText(turns, 1);
    expect(ok).toBe(true);
    expect(text).toContain("Turn 1 (completed): What is 2+2?");
    expect(text).toContain("agent2.1 by bob:\n    four");
    expect(text).toContain("bob → alice (agent1.1): shorter");
    expect(text).toContain("Winner: alice");
    expect(inspectText(turns, 3)).toEqual({ ok: false, text: "No turn 3: turns are 1 to 1." });
    expect(inspectText([], "last").ok).toBe(false);
  });
});
