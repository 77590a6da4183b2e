/**
 * Wilson intervals and McNemar's test against reference values computed independently with
 * SciPy 1.17 (`scipy.stats.binomtest(k, n, 0.5).pvalue`, `scipy.stats.chi2.sf(x, 1)`,
 * `scipy.special.erfc`) and Wilson's formula as published (Newcombe 1998, Stat. Med. 17: 8/10 →
 * 0.490–0.943).
 */
import { describe, expect, test } from "vitest";
import {
  binomialCdfHalf,
  chiSquare1Survival,
  erfc,
  mcnemarTest,
  MCNEMAR_EXACT_BELOW,
  wilsonInterval,
} from "./stats.js";

describe("wilsonInterval", () => {
  test.each([
    [8, 10, 0.4901624715366418, 0.9433178485456248],
    [0, 10, 0, 0.2775327998628892],
    [41, 50, 0.6920394632569922, 0.9022980732976582],
    [10, 10, 0.7224672001371107, 1],
    [1, 1, 0.20654931437723745, 1],
  ])("%i of %i", (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.low).toBeCloseTo(low, 10);
    expect(interval.high).toBeCloseTo(high, 10);
  });

  test("no trials: nothing is known", () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  test("counts out of range are refused", () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });
});

describe("mcnemarTest", () => {
  test("no discordant pair: p = 1", () => {
    expect(mcnemarTest(0, 0)).toEqual({ firstOnly: 0, secondOnly: 0, pValue: 1, test: "none" });
  });

  test.each([
    [1, 7, 0.0703125],
    [3, 9, 0.14599609375],
    [0, 5, 0.0625],
    [12, 12, 1],
  ])("exact binomial below 25 discordant items: b=%i c=%i", (b, c, p) => {
    const result = mcnemarTest(b, c);
    expect(b + c).toBeLessThan(MCNEMAR_EXACT_BELOW);
    expect(result.test).toBe("exact");
    expect(result.pValue).toBeCloseTo(p, 10);
    // Symmetric in the two methods.
    expect(mcnemarTest(c, b).pValue).toBeCloseTo(p, 10);
  });

  test.each([
    [10, 30, 0.002663119259138558],
    [12, 30, 0.008711912962379598],
    [20, 5, 0.005110260660855866],
  ])("chi-square with continuity correction from 25 discordant items: b=%i c=%i", (b, c, p) => {
    const result = mcnemarTest(b, c);
    expect(result.test).toBe("chi-square");
    expect(result.pValue).toBeCloseTo(p, 6);
  });
});

describe("the distributions", () => {
  test("erfc matches SciPy to 1e-7", () => {
    expect(erfc(0.5)).toBeCloseTo(0.4795001221869535, 7);
    expect(erfc(2)).toBeCloseTo(0.004677734981047266, 7);
    expect(erfc(-1)).toBeCloseTo(1.8427007929497148, 7);
  });

  test("binomial tail at 1/2 and chi-square survival", () => {
    expect(binomialCdfHalf(1, 8)).toBeCloseTo(9 / 256, 12);
    expect(binomialCdfHalf(8, 8)).toBe(1);
    expect(chiSquare1Survival(0)).toBe(1);
    expect(chiSquare1Survival(3.841458820694124)).toBeCloseTo(0.05, 6);
  });
});
