import { describe, expect, it } from "vitest";
import { columnWidth, formatCost, formatDuration, padCell, renderTable } from "./text-table.js";

describe("text tables", () => {
  it("pads columns, right-aligns numbers, adds a rule before the total", () => {
    const text = renderTable(
      [{ header: "Tool" }, { header: "Calls", align: "right" }],
      [
        ["search", "12"],
        ["read", "3"],
      ],
      ["TOTAL", "15"],
    );
    expect(text).toBe(
      ["Tool    Calls", "search     12", "read        3", "------  -----", "TOTAL      15"].join(
        "\n",
      ),
    );
  });

  it("formats durations and costs; an unknown cost is never a number", () => {
    expect([0, 0.25, 850, 1234, 59_949, 125_000, 3_720_000].map(formatDuration)).toEqual([
      "0 ms",
      "0.3 ms",
      "850 ms",
      "1.2 s",
      "59.9 s",
      "2m 05s",
      "1h 02m",
    ]);
    expect(formatDuration(null)).toBe("-");
    expect([null, 0, 0.00004, 0.0042, 1.5].map(formatCost)).toEqual([
      "unknown",
      "$0.00",
      "<$0.0001",
      "$0.0042",
      "$1.50",
    ]);
  });
});

describe("text table widths", () => {
  it("measures terminal columns: CJK and emoji ids take two columns each and still line up", () => {
    const text = renderTable(
      [{ header: "Agent" }, { header: "Calls", align: "right" }],
      [
        ["研究者", "3"],
        ["🤖bot", "12"],
        ["alice", "7"],
      ],
    );
    const lines = text.split("\n");
    // "研究者" is 3 characters but 6 columns: the column is 6 wide, so every line is 6+2+5 columns
    expect(lines).toEqual(["Agent   Calls", "研究者      3", "🤖bot      12", "alice       7"]);
  });

  it("pads to a width in columns, left or right", () => {
    expect(padCell("日本", 5)).toBe("日本 ");
    expect(padCell("日本", 5, "right")).toBe(" 日本");
    expect(padCell("too wide", 3)).toBe("too wide");
    expect(columnWidth(["a", "é", "日本語"])).toBe(6);
    expect(columnWidth([])).toBe(0);
  });
});
