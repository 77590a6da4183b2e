/**
 * Glob patterns of `find_files` and `search_files` (docs/tools.md "File tools"), matched in linear
 * time. picomatch turns a glob into a backtracking JavaScript RegExp, so
 * `*a*a*a*a*a*a*a*a*b` against a 60-character file name takes 30 s and `@(a*)+(a*)*(a*)b` minutes;
 * here the glob is translated into RE2 syntax and matched by `re2js` instead. The folder is still
 * walked by tinyglobby, with the fixed pattern `**`; only the caller's pattern goes through this.
 *
 * Supported, as picomatch with `dot: true` and tinyglobby's `expandDirectories`: `*`, `?`, `**` as a
 * whole segment, `[abc]` / `[!abc]`, `{a,b}` (nested), `\` escapes, the extglobs `@(…)`, `?(…)`,
 * `*(…)`, `+(…)`; a pattern that names a folder also matches everything inside it. Not supported:
 * `!(…)` (no negation in RE2) and numeric ranges `{1..3}` (taken literally).
 */
import { RE2JS } from "re2js";
import { ToolError } from "./path-policy.js";

/** Longest glob pattern accepted (characters). */
export const MAX_GLOB_CHARS = 1000;

/** A compiled glob: tests a `/`-separated path relative to the folder searched. */
export interface GlobMatcher {
  (path: string): boolean;
  /** Leading segments without any glob syntax (`src/lib` of `src/lib/**\/*.ts`), or "". */
  readonly prefix: string;
}

const MAGIC = /[*?[\]{}()!+@\\]/;
const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/**
 * Compiles `pattern`.
 * @throws ToolError for a pattern too long, with `!(…)`, or that RE2 cannot compile.
 */
export function compileGlob(tool: string, pattern: string): GlobMatcher {
  if (pattern.length > MAX_GLOB_CHARS) {
    throw new ToolError(`${tool}: the glob pattern is longer than ${MAX_GLOB_CHARS} characters`);
  }
  let glob = pattern.replace(/^(?:\.\/)+/, "");
  if (glob.endsWith("/")) glob = glob.slice(0, -1);
  const parser = new Parser(tool, glob);
  const body = parser.sequence("");
  // tinyglobby's expandDirectories: a pattern not ending in `*` also matches what is inside.
  const inside = glob.endsWith("*") ? "" : "(?:/.*)?";
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(`^(?:${body})${inside}$`, RE2JS.DOTALL);
  } catch (error) {
    throw new ToolError(`${tool}: not a usable glob pattern: ${(error as Error).message}`);
  }
  const segments = glob.split("/");
  const literal: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (MAGIC.test(segment) || segment === "" || segment === ".") break;
    literal.push(segment);
  }
  return Object.assign((path: string) => regex.testExact(path), { prefix: literal.join("/") });
}

/** A recursive-descent translation of a glob into RE2 syntax. */
class Parser {
  private index = 0;
  constructor(
    private readonly tool: string,
    private readonly glob: string,
  ) {}

  /**
   * Translates until end of pattern or an unescaped character of `stops` (not consumed).
   * @param stops `,}` inside braces, `|)` inside an extglob, "" at the top.
   */
  sequence(stops: string): string {
    const out: string[] = [];
    const glob = this.glob;
    while (this.index < glob.length) {
      const char = glob[this.index]!;
      if (stops.includes(char)) break;
      const next = glob[this.index + 1];
      if (char === "\\") {
        out.push(escape(next ?? "\\"));
        this.index += 2;
      } else if (next === "(" && "@?*+!".includes(char)) {
        if (char === "!") {
          throw new ToolError(
            `${this.tool}: negated extglobs !(…) are not supported in glob patterns`,
          );
        }
        this.index += 2;
        const alternatives = this.alternatives("|)", ")");
        out.push(`(?:${alternatives})${char === "@" ? "" : char}`);
      } else if (char === "*" && next === "*" && this.wholeSegment()) {
        const last = this.index + 2 >= glob.length;
        this.index += 2;
        if (last && out.at(-1) === "/") {
          out.pop();
          out.push("(?:/.*)?");
        } else if (last) {
          out.push(".*");
        } else {
          this.index += 1; // the `/` after it
          out.push("(?:.*/)?");
        }
      } else if (char === "*") {
        out.push("[^/]*");
        this.index += 1;
        while (glob[this.index] === "*") this.index += 1;
      } else if (char === "?") {
        out.push("[^/]");
        this.index += 1;
      } else if (char === "[") {
        out.push(this.bracket());
      } else if (char === "{" && this.hasComma()) {
        this.index += 1;
        out.push(`(?:${this.alternatives(",}", "}")})`);
      } else {
        out.push(escape(char));
        this.index += 1;
      }
    }
    return out.join("");
  }

  /** Alternatives separated by the first of `stops` and closed by `close` (consumed). */
  private alternatives(stops: string, close: string): string {
    const options = [this.sequence(stops)];
    while (this.glob[this.index] === stops[0]) {
      this.index += 1;
      options.push(this.sequence(stops));
    }
    if (this.glob[this.index] !== close) {
      throw new ToolError(
        `${this.tool}: the glob pattern has an unclosed ${close === "}" ? "{" : "("}`,
      );
    }
    this.index += 1;
    return options.join("|");
  }

  /** True when the `**` at the index is a whole path segment. */
  private wholeSegment(): boolean {
    const before = this.index === 0 || this.glob[this.index - 1] === "/";
    const after = this.glob[this.index + 2];
    return before && (after === undefined || after === "/");
  }

  /** True when the `{` at the index has a top-level `,` before its `}` (else it is literal). */
  private hasComma(): boolean {
    let depth = 0;
    for (let at = this.index; at < this.glob.length; at++) {
      const char = this.glob[at];
      if (char === "\\") at++;
      else if (char === "{") depth++;
      else if (char === "}" && --depth === 0) return false;
      else if (char === "," && depth === 1) return true;
    }
    return false;
  }

  /** `[…]` as an RE2 class (`[!…]` negated); a `[` without its `]` is literal. */
  private bracket(): string {
    const close = this.glob.indexOf("]", this.index + 2);
    if (close === -1) {
      this.index += 1;
      return "\\[";
    }
    let body = this.glob.slice(this.index + 1, close);
    this.index = close + 1;
    const negated = body.startsWith("!") || body.startsWith("^");
    if (negated) body = body.slice(1);
    const members = body.replace(/\\(.)/g, "$1").replace(/[\\\]^[]/g, "\\$&");
    return negated ? `[^/${members}]` : `[${members}]`;
  }
}

function escape(char: string): string {
  return char.replace(REGEX_SPECIAL, "\\$&");
}
