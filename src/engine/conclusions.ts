/**
 * An answer's conclusion: what a reader would compare between two answers to a
 * question with a short answer: a number, a choice letter, a short phrase. Answers with the same
 * conclusion form one group for the tally (`./team.ts`). Pure functions, no I/O.
 *
 * The rule (docs/coordination.md "How the winner is chosen"), first match wins:
 *
 * 1. the agent's own `short_answer` (the optional field of `new_answer`), normalised;
 * 2. a GSM8K-style `#### X` line (the last one);
 * 3. a LaTeX `\boxed{X}` (the last one);
 * 4. in the answer's last non-empty line: `answer: X` or `answer is X` (`Final answer: 18`,
 *    `The answer is (B).`);
 * 5. a last line that is only bold text, `**X**`;
 * 6. a last line ending in `= X`, or an answer that is itself one short line: only when X is a
 *    number or a choice letter (`4`, `2+2 = 4`; "Four" or "done" stay free-form).
 *
 * X must be at most {@link MAX_CONCLUSION_CHARS} characters, else it is no conclusion. Then it is
 * normalised ({@link normalizeConclusion}): a number (`$1,200.50`, `18.0 km`, `-3`) to its
 * canonical digits (`1200.5`, `18`, `-3`); a single choice letter (`(B)`, `B)`, `option b`) to
 * the upper-case letter; anything else to lower case with surrounding quotes, markdown and final
 * punctuation removed and spaces collapsed. Numbers are not read from words ("eighteen" stays a
 * word). An answer with no conclusion is free-form: it forms a group of its own.
 */

/** Longest conclusion kept (characters, before normalisation). */
export const MAX_CONCLUSION_CHARS = 60;

/**
 * The conclusion of an answer, or undefined for a free-form answer.
 * @param content the answer as given.
 * @param shortAnswer the agent's own `short_answer`, when it gave one; it wins over extraction
 *   unless it is empty or longer than {@link MAX_CONCLUSION_CHARS}.
 */
export function conclusionOf(content: string, shortAnswer?: string): string | undefined {
  const given = shortAnswer !== undefined ? normalizeConclusion(shortAnswer) : undefined;
  if (given !== undefined) return given;
  const found = extractConclusion(content);
  if (found === undefined) return undefined;
  const normal = normalizeConclusion(found.text);
  return found.explicit || (normal !== undefined && isNumberOrChoice(normal)) ? normal : undefined;
}

/** True for a normalised number (`18`, `-2.5`) or choice letter (`B`). */
export function isNumberOrChoice(conclusion: string): boolean {
  return /^-?\d+(?:\.\d+)?$/.test(conclusion) || /^[A-J]$/.test(conclusion);
}

/**
 * The raw conclusion text by rules 2–6 of the module rule, or undefined. `explicit`: marked as
 * the answer (rules 2–5 except `= X`); otherwise (`= X`, a short answer) it counts only as a
 * number or a choice letter.
 */
export function extractConclusion(
  content: string,
): { text: string; explicit: boolean } | undefined {
  const lines = content
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const marked = (text: string | undefined, explicit = true) => {
    const kept = text === undefined ? undefined : short(text);
    return kept === undefined ? undefined : { text: kept, explicit };
  };
  const hashes = lines.filter((line) => line.startsWith("####"));
  if (hashes.length > 0) return marked(hashes.at(-1)!.replace(/^#+/, ""));
  const boxed = lastBoxed(content);
  if (boxed !== undefined) return marked(boxed);
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  const stated = /\banswer\b[^:]{0,20}?(?::|\bis\b:?)\s*(\S.*)$/i.exec(last);
  if (stated) return marked(stated[1]);
  const bold = /^\*\*(.+?)\*\*[.!]?$/.exec(last);
  if (bold) return marked(bold[1]);
  const equals = /(?:^|\s)=\s*([^=\s][^=]*)$/.exec(last);
  if (equals) return marked(equals[1], false);
  return lines.length === 1 ? marked(last, false) : undefined;
}

/**
 * Normalises a conclusion so that equal answers compare equal; undefined when nothing is left or
 * it is longer than {@link MAX_CONCLUSION_CHARS}.
 */
export function normalizeConclusion(raw: string): string | undefined {
  if (raw.length > 4 * MAX_CONCLUSION_CHARS) return undefined;
  const text = stripDecoration(raw);
  if (text === "" || text.length > MAX_CONCLUSION_CHARS) return undefined;
  const number = numberOf(text);
  if (number !== undefined) return number;
  const choice =
    /^(?:option|choice)?\s*\(?([a-j])\)?$/i.exec(text) ?? /^\(([a-j])\)\s/i.exec(`${text} `);
  if (choice) return choice[1]!.toUpperCase();
  return text.toLowerCase().replace(/\s+/g, " ");
}

function short(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === "" || trimmed.length > MAX_CONCLUSION_CHARS ? undefined : trimmed;
}

/**
 * Compatibility forms folded (NFKC: full-width `１８` and mathematical `𝟏𝟖` read as `18`), invisible
 * format characters (soft hyphen, zero-width space and joiners, marks U+200B–U+200F,
 * U+2060–U+2064, U+FEFF) dropped, then
 * quotes, markdown emphasis, `$…$` math and final punctuation around the text removed.
 */
function stripDecoration(raw: string): string {
  let text = raw
    .normalize("NFKC")
    .replace(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, "")
    .trim();
  for (let pass = 0; pass < 3; pass++) {
    text = text
      .replace(/^[*_`"'“”‘’\s]+|[*_`"'“”‘’\s]+$/g, "")
      .replace(/[.!;,]+$/, "")
      .replace(/^\\\(|\\\)$/g, "")
      .trim();
    const math = /^\$([^$]*)\$$/.exec(text);
    if (math) text = math[1]!.trim();
  }
  return text;
}

/**
 * A number with currency, thousands separators and a unit word or `%` stripped, in canonical
 * form (`1,200.50` → `1200.5`, `18.0` → `18`, `$-3` → `-3`); undefined when `text` is not one.
 */
function numberOf(text: string): string | undefined {
  const match =
    /^(?:[$€£¥]|usd|eur|rs\.?)?\s*([-+−]?)\s*(?:[$€£¥])?\s*(\d{1,3}(?:[,\u00a0 ]\d{3})+|\d+)?(\.\d+)?\s*(?:%|[a-z]{1,12}(?:\s[a-z]{1,12})?)?$/i.exec(
      text,
    );
  if (!match || (match[2] === undefined && match[3] === undefined)) return undefined;
  const digits = `${match[2] ?? "0"}${match[3] ?? ""}`.replace(/[,\u00a0 ]/g, "");
  const value = Number(digits);
  if (!Number.isFinite(value)) return undefined;
  const sign = match[1] === "-" || match[1] === "−" ? -1 : 1;
  const canonical = String(sign * value);
  return canonical === "-0" ? "0" : canonical;
}

/** The content of the last `\boxed{…}` (braces balanced), or undefined. */
function lastBoxed(content: string): string | undefined {
  const start = content.lastIndexOf("\\boxed{");
  if (start < 0) return undefined;
  let depth = 0;
  for (let index = start + "\\boxed".length; index < content.length; index++) {
    const char = content[index];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return content.slice(start + "\\boxed{".length, index);
  }
  return undefined;
}
