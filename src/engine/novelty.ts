/**
 * The answer novelty check of docs/coordination.md "Voting mode" step 2: token-set Jaccard
 * similarity between a new answer and each existing one; `balanced` refuses above 0.70, `strict`
 * above 0.50, `lenient` never checks.
 */

/** Similarity thresholds per `answer_novelty_requirement`; undefined means no check. */
export const NOVELTY_THRESHOLDS = { lenient: undefined, balanced: 0.7, strict: 0.5 } as const;

/** Lower-cased word tokens (letters and digits, Unicode-aware). */
export function tokenSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** |A ∩ B| / |A ∪ B| of the two texts' token sets; 1 for two empty texts. */
export function jaccard(a: string, b: string): number {
  const left = tokenSet(a);
  const right = tokenSet(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return shared / (left.size + right.size - shared);
}
