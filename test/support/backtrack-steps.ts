/**
 * A step-counting backtracking regex matcher, for tests that prove a pattern does linear work on
 * hostile input by counting, not timing (src/engine/conclusions-hostile.test.ts). It
 * runs a JavaScript pattern the way a backtracking engine such as V8's Irregexp does (leftmost
 * start first, greedy/lazy quantifiers tried in order, alternatives left to right) and counts one
 * step per node tried, per character a quantifier consumes and per start position. The count is
 * a model of the work, not V8's exact instruction count: a pattern that backtracks quadratically
 * here does so in V8 (which has no memoisation), and the match it finds is checked against the
 * native `RegExp` by {@link replayCall}'s callers.
 *
 * Supported syntax (no `u`, `s`, `m`, `v` flags; `i`, `g`, `y` honoured): literals, `.`,
 * classes with ranges and negation, `\d \D \s \S \w \W \b \B`, `\n \r \t \v \f \0`, `\xHH`,
 * `\uHHHH`, identity escapes, `^ $`, groups `( )`, `(?: )`, `(?<name> )`, lookahead `(?= )`
 * `(?! )`, alternation, quantifiers `* + ? {n} {n,} {n,m}` and their lazy forms.
 * @throws Error on any other syntax (a pattern this model cannot count).
 */

type Node =
  | { t: "char"; test: (code: number) => boolean }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; options: Node[] }
  | { t: "rep"; body: Node; min: number; max: number; lazy: boolean }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "look"; body: Node; negative: boolean };

const SPACE =
  /* \s in a JavaScript RegExp */ "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";
const isSpace = (code: number) => SPACE.includes(String.fromCharCode(code));
const isDigit = (code: number) => code >= 48 && code <= 57;
const isWord = (code: number) =>
  isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const LINE_END = [10, 13, 0x2028, 0x2029];

/** Parses `source` with `flags`. */
function parse(source: string, ignoreCase: boolean): Node {
  let at = 0;
  const fold = (test: (code: number) => boolean) =>
    ignoreCase
      ? (code: number) => {
          const char = String.fromCharCode(code);
          return (
            test(code) ||
            test(char.toLowerCase().charCodeAt(0)) ||
            test(char.toUpperCase().charCodeAt(0))
          );
        }
      : test;
  const fail = (why: string): never => {
    throw new Error(`backtrack-steps: ${why} at ${at} in /${source}/`);
  };
  /** An escape after `\` (at points past the backslash): a class test, or a code unit. */
  const escape = (inClass: boolean): ((code: number) => boolean) | number => {
    const char = source[at++] ?? fail("trailing backslash");
    switch (char) {
      case "d":
        return isDigit;
      case "D":
        return (code) => !isDigit(code);
      case "s":
        return isSpace;
      case "S":
        return (code) => !isSpace(code);
      case "w":
        return isWord;
      case "W":
        return (code) => !isWord(code);
      case "n":
        return 10;
      case "r":
        return 13;
      case "t":
        return 9;
      case "v":
        return 11;
      case "f":
        return 12;
      case "0":
        return 0;
      case "b":
        return inClass ? 8 : fail("\\b outside a class is an assertion");
      case "x":
      case "u": {
        const length = char === "x" ? 2 : 4;
        const hex = source.slice(at, at + length);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) fail(`bad \\${char}`);
        at += length;
        return parseInt(hex, 16);
      }
      default:
        if (/[a-zA-Z0-9]/.test(char)) fail(`unsupported escape \\${char}`);
        return char.charCodeAt(0);
    }
  };
  const charClass = (): Node => {
    const negated = source[at] === "^";
    if (negated) at++;
    const tests: Array<(code: number) => boolean> = [];
    while (source[at] !== "]") {
      if (at >= source.length) fail("unterminated class");
      const start = source[at] === "\\" ? (at++, escape(true)) : source.charCodeAt(at++);
      if (typeof start === "number" && source[at] === "-" && source[at + 1] !== "]") {
        at++;
        const end = source[at] === "\\" ? (at++, escape(true)) : source.charCodeAt(at++);
        if (typeof end !== "number") fail("class range to a class escape");
        tests.push((code) => code >= start && code <= (end as number));
      } else tests.push(typeof start === "number" ? (code) => code === start : start);
    }
    at++;
    const any = fold((code) => tests.some((test) => test(code)));
    return { t: "char", test: negated ? (code) => !any(code) : any };
  };
  const atom = (): Node => {
    const char = source[at++]!;
    switch (char) {
      case ".":
        return { t: "char", test: (code) => !LINE_END.includes(code) };
      case "^":
      case "$":
        return { t: "assert", kind: char };
      case "[":
        return charClass();
      case "(": {
        let look: boolean | undefined;
        if (source.startsWith("?:", at)) at += 2;
        else if (source.startsWith("?=", at) || source.startsWith("?!", at)) {
          look = source[at + 1] === "!";
          at += 2;
        } else if (source.startsWith("?<", at) && !"=!".includes(source[at + 2] ?? "")) {
          at = source.indexOf(">", at) + 1;
        } else if (source[at] === "?") fail("unsupported group");
        const body = alternation();
        if (source[at++] !== ")") fail("unterminated group");
        return look === undefined ? body : { t: "look", body, negative: look };
      }
      case "\\": {
        if (source[at] === "b" || source[at] === "B") {
          return { t: "assert", kind: source[at++] as "b" | "B" };
        }
        const escaped = escape(false);
        return {
          t: "char",
          test: fold(typeof escaped === "number" ? (code) => code === escaped : escaped),
        };
      }
      default: {
        if ("*+?{".includes(char)) fail("nothing to repeat");
        const code = char.charCodeAt(0);
        return { t: "char", test: fold((other) => other === code) };
      }
    }
  };
  const quantified = (): Node => {
    const body = atom();
    let min: number;
    let max: number;
    const char = source[at];
    if (char === "*") [min, max] = [0, Infinity];
    else if (char === "+") [min, max] = [1, Infinity];
    else if (char === "?") [min, max] = [0, 1];
    else if (char === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(at))) {
      const [, low, comma, high] = /^\{(\d+)(,)?(\d*)\}/.exec(source.slice(at))!;
      min = Number(low);
      max = comma === undefined ? min : high === "" ? Infinity : Number(high);
      at = source.indexOf("}", at);
    } else return body;
    at++;
    const lazy = source[at] === "?";
    if (lazy) at++;
    return { t: "rep", body, min, max, lazy };
  };
  const sequence = (): Node => {
    const items: Node[] = [];
    while (at < source.length && source[at] !== "|" && source[at] !== ")") items.push(quantified());
    return { t: "seq", items };
  };
  function alternation(): Node {
    const options = [sequence()];
    while (source[at] === "|") {
      at++;
      options.push(sequence());
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }
  const root = alternation();
  if (at !== source.length) fail("unbalanced )");
  return root;
}

/** Parsed patterns by `flags/source` (a split replays one pattern once per position). */
const parsed = new Map<string, Node>();

/** The outcome of one exec: where the match is (or null) and the steps it took. */
export interface ReplayResult {
  match: { index: number; end: number } | null;
  steps: number;
}

/**
 * Runs one `exec` of `/source/flags` on `input` the way `RegExp.prototype.exec` does: from
 * `lastIndex` for a global or sticky pattern (sticky: only there), else from 0.
 * @throws Error for syntax {@link parse} does not support.
 */
export function replayCall(
  source: string,
  flags: string,
  input: string,
  lastIndex: number,
): ReplayResult {
  if (/[usmv]/.test(flags)) throw new Error(`backtrack-steps: unsupported flags ${flags}`);
  const key = `${flags}/${source}`;
  const root = parsed.get(key) ?? parse(source, flags.includes("i"));
  parsed.set(key, root);
  let steps = 0;
  const length = input.length;
  const word = (pos: number) => pos >= 0 && pos < length && isWord(input.charCodeAt(pos));
  const match = (node: Node, pos: number, next: (pos: number) => boolean): boolean => {
    steps++;
    switch (node.t) {
      case "char":
        return pos < length && node.test(input.charCodeAt(pos)) && next(pos + 1);
      case "seq": {
        const from = (index: number, at: number): boolean =>
          index === node.items.length
            ? next(at)
            : match(node.items[index]!, at, (to) => from(index + 1, to));
        return from(0, pos);
      }
      case "alt":
        return node.options.some((option) => match(option, pos, next));
      case "assert": {
        const ok =
          node.kind === "^"
            ? pos === 0
            : node.kind === "$"
              ? pos === length
              : (word(pos - 1) !== word(pos)) === (node.kind === "b");
        return ok && next(pos);
      }
      case "look": {
        const found = match(node.body, pos, () => true);
        return found !== node.negative && next(pos);
      }
      case "rep": {
        const body = node.body;
        if (body.t === "char") {
          // One character per repetition: scan the run once, then try the continuation at each
          // length, longest first (greedy) or shortest first (lazy), as a backtracking engine does.
          let run = 0;
          while (
            run < node.max &&
            pos + run < length &&
            (steps++, body.test(input.charCodeAt(pos + run)))
          )
            run++;
          if (run < node.min) return false;
          for (
            let count = node.lazy ? node.min : run;
            node.lazy ? count <= run : count >= node.min;
            count += node.lazy ? 1 : -1
          ) {
            steps++;
            if (next(pos + count)) return true;
          }
          return false;
        }
        const again = (count: number, at: number): boolean => {
          const more = () =>
            count < node.max && match(body, at, (to) => to !== at && again(count + 1, to));
          const stop = () => count >= node.min && next(at);
          return node.lazy ? stop() || more() : more() || stop();
        };
        return again(0, pos);
      }
    }
  };
  const sticky = flags.includes("y");
  const from = sticky || flags.includes("g") ? lastIndex : 0;
  for (let start = from; start <= length; start++) {
    steps++;
    let end = -1;
    if (match(root, start, (to) => ((end = to), true)))
      return { match: { index: start, end }, steps };
    if (sticky) break;
  }
  return { match: null, steps };
}
