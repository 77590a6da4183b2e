/**
 * The statistics of `coord eval` (docs/eval.md "How to read the report"): a 95 % confidence
 * interval for an accuracy (Wilson's score interval) and a paired comparison of two methods on
 * the same items (McNemar's test). Pure functions of counts.
 *
 * Sources: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
 * JASA 22 (1927); Q. McNemar, "Note on the sampling error of the difference between correlated
 * proportions or percentages", Psychometrika 12 (1947); A. Agresti, "Categorical Data Analysis"
 * (the exact binomial form of McNemar's test, and the continuity-corrected chi-square).
 */

/** The two-sided 97.5 % quantile of the standard normal: a 95 % interval. */
export const Z_95 = 1.959963984540054;

/** A closed interval of proportions, both ends in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson's score interval for `successes` out of `trials`: the proportions p whose normal test
 * `|p̂ − p| / sqrt(p(1 − p)/n) ≤ z` does not reject. Unlike the normal ("Wald") interval it stays
 * inside [0, 1] and is not empty at 0 or n successes.
 *
 * @param successes whole number, 0 ≤ successes ≤ trials.
 * @param trials whole number ≥ 0; with 0 trials the interval is [0, 1] (nothing is known).
 * @param z the normal quantile; default {@link Z_95} (a 95 % interval).
 * @throws RangeError for counts that are not whole numbers in range.
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): Interval {
  assertCounts(successes, trials);
  if (trials === 0) return { low: 0, high: 1 };
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Exact at the ends (rounding can leave 1e-17 outside).
  return {
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === n ? 1 : Math.min(1, center + half),
  };
}

/** McNemar's test below this many discordant pairs uses the exact binomial form. */
export const MCNEMAR_EXACT_BELOW = 25;

/** The outcome of {@link mcnemarTest}. */
export interface McNemarResult {
  /** Items the first method got right and the second wrong. */
  firstOnly: number;
  /** Items the second method got right and the first wrong. */
  secondOnly: number;
  /** Two-sided p-value of "both methods are equally accurate on these items", in [0, 1]. */
  pValue: number;
  /**
   * `exact`: the binomial test of `firstOnly` out of the discordant pairs at 1/2 (fewer than
   * {@link MCNEMAR_EXACT_BELOW} discordant pairs); `chi-square`: `(|b − c| − 1)² / (b + c)` on
   * one degree of freedom; `none`: no discordant pair (p = 1).
   */
  test: "exact" | "chi-square" | "none";
}

/**
 * McNemar's test of two methods scored on the same items. Only the discordant items carry
 * information: `b` items where only the first was right and `c` where only the second was. Under
 * the null hypothesis each discordant item is a fair coin.
 *
 * @param firstOnly b, a whole number ≥ 0.
 * @param secondOnly c, a whole number ≥ 0.
 * @throws RangeError for counts that are not whole numbers ≥ 0.
 */
export function mcnemarTest(firstOnly: number, secondOnly: number): McNemarResult {
  assertCounts(firstOnly, firstOnly + secondOnly);
  assertCounts(secondOnly, firstOnly + secondOnly);
  const discordant = firstOnly + secondOnly;
  if (discordant === 0) return { firstOnly, secondOnly, pValue: 1, test: "none" };
  if (discordant < MCNEMAR_EXACT_BELOW) {
    const tail = binomialCdfHalf(Math.min(firstOnly, secondOnly), discordant);
    return { firstOnly, secondOnly, pValue: Math.min(1, 2 * tail), test: "exact" };
  }
  const statistic = (Math.abs(firstOnly - secondOnly) - 1) ** 2 / discordant;
  return { firstOnly, secondOnly, pValue: chiSquare1Survival(statistic), test: "chi-square" };
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space (exact enough for any n). */
export function binomialCdfHalf(k: number, n: number): number {
  let total = 0;
  let logChoose = 0; // log C(n, 0)
  const logHalfN = n * Math.log(0.5);
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    total += Math.exp(logChoose + logHalfN);
  }
  return Math.min(1, total);
}

/** P(X > x) for X ~ chi-square with one degree of freedom: `erfc(sqrt(x / 2))`. */
export function chiSquare1Survival(x: number): number {
  if (x <= 0) return 1;
  return erfc(Math.sqrt(x / 2));
}

/**
 * The complementary error function, by the Chebyshev fit of Numerical Recipes (2nd ed., §6.2,
 * `erfcc`): fractional error below 1.2e-7 everywhere, ample for p-values.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const value = t * Math.exp(poly);
  return x >= 0 ? value : 2 - value;
}

function assertCounts(successes: number, trials: number): void {
  if (
    !Number.isInteger(successes) ||
    !Number.isInteger(trials) ||
    successes < 0 ||
    trials < 0 ||
    successes > trials
  ) {
    throw new RangeError(`counts must be whole numbers with 0 ≤ ${successes} ≤ ${trials}`);
  }
}
