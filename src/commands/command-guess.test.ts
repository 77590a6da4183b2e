import { describe, expect, test } from "vitest";
import { editDistance } from "../edit-distance.js";
import { guessCommand, refuseCommandLikeQuestion } from "./command-guess.js";

const COMMANDS = ["serve", "logs", "viewer", "export", "shares", "help"];

describe("a mistyped sub-command is never a question", () => {
  test.each([
    ["exprt", "coord export"],
    ["exprot", "coord export"],
    ["Export", "coord export"],
    ["veiwer", "coord viewer"],
    ["view", "coord viewer"],
    ["share", "coord shares"],
    ["log", "coord logs"],
    ["serv", "coord serve"],
    ["sessions", "coord --list-sessions"],
    ["version", "coord --version"],
  ])("%s → %s", (word, suggestion) => {
    expect(guessCommand(word, COMMANDS)).toBe(suggestion);
    expect(() => refuseCommandLikeQuestion(word, COMMANDS)).toThrow(suggestion);
  });

  test.each([
    "hello",
    "Why?",
    "2+2",
    "export?",
    "export this log",
    "Paris",
    "summarize",
    "viewers-guide?",
  ])("%j is asked", (question) => {
    expect(() => refuseCommandLikeQuestion(question, COMMANDS)).not.toThrow();
  });

  test("the message says how to ask the word anyway", () => {
    expect(() => refuseCommandLikeQuestion("exprt", COMMANDS)).toThrow(
      /did you mean coord export\?.*coord "exprt\?"/,
    );
  });

  test("edit distance counts a swap of neighbours as one", () => {
    expect(editDistance("exprot", "export")).toBe(1);
    expect(editDistance("logs", "logs")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});
