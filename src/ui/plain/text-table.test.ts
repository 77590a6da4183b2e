import { describe, expect, it } from "vitest";
import { formatCost, formatDuration, renderTable } from "./text-table.js";

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
