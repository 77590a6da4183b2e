/**
 * Counting, not timing, the regex work of code under test: {@link recordNativeExecs} records
 * every native `RegExp` exec a call makes (`RegExp.prototype.exec` is wrapped, the real one still
 * runs; with the prototype changed V8 routes `test`, `split`, `replace`, `match` through it), and
 * {@link nativeRegexSteps} replays them in the step-counting backtracking matcher of
 * ./backtrack-steps.ts. Patterns compiled by re2js (linear by construction) run no native exec
 * and count 0. Used by src/tools/*.test.ts and src/engine/conclusions-hostile.test.ts.
 */
import { replayCall } from "./backtrack-steps.js";

/** One native exec: the pattern, its input and where it started, and the match it found. */
export interface ExecCall {
  source: string;
  flags: string;
  input: string;
  lastIndex: number;
  match: { index: number; end: number } | null;
}

// The original, called with its RegExp as `this` (`nativeExec.call(regex, …)`).
// eslint-disable-next-line @typescript-eslint/unbound-method
const nativeExec = RegExp.prototype.exec;

/** Wraps `RegExp.prototype.exec` to push every native exec onto `calls`; returns the undo. */
function recordInto(calls: ExecCall[]): () => void {
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const lastIndex = this.lastIndex;
    const result = nativeExec.call(this, input);
    calls.push({
      source: this.source,
      flags: this.flags,
      input: String(input),
      lastIndex,
      match: result === null ? null : { index: result.index, end: result.index + result[0].length },
    });
    return result;
  };
  return () => {
    RegExp.prototype.exec = nativeExec;
  };
}

/**
 * Runs `run` (awaited when it returns a promise) and returns every native RegExp exec made
 * meanwhile, with its result. The wrapper is removed when `run` settles, also on a throw.
 */
export async function recordNativeExecs(run: () => unknown): Promise<ExecCall[]> {
  const calls: ExecCall[] = [];
  const undo = recordInto(calls);
  try {
    await run();
  } finally {
    undo();
  }
  return calls;
}

/** {@link recordNativeExecs} for synchronous code: the wrapper is removed when `run` returns. */
export function recordNativeExecsSync(run: () => unknown): ExecCall[] {
  const calls: ExecCall[] = [];
  const undo = recordInto(calls);
  try {
    run();
  } finally {
    undo();
  }
  return calls;
}

/**
 * `source` with the `s` flag's meaning spelled out: every `.` outside a class becomes
 * `[\s\S]`, so ./backtrack-steps.ts (which has no `s` flag) can replay it.
 */
function withoutDotAll(source: string): string {
  let out = "";
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === "\\") {
      out += char + (source[at + 1] ?? "");
      at++;
    } else if (inClass) {
      if (char === "]") inClass = false;
      out += char;
    } else if (char === "[") {
      inClass = true;
      out += char;
    } else out += char === "." ? "[\\s\\S]" : char;
  }
  return out;
}

/**
 * Backtracking steps of the recorded execs, each replayed by ./backtrack-steps.ts.
 * @throws Error when the replay finds another match than the native RegExp did, or for syntax
 *   the step counter cannot replay.
 */
export function nativeRegexSteps(calls: readonly ExecCall[]): number {
  let steps = 0;
  for (const call of calls) {
    const dotAll = call.flags.includes("s");
    const source = dotAll ? withoutDotAll(call.source) : call.source;
    const flags = call.flags.replace("s", "");
    const replayed = replayCall(source, flags, call.input, call.lastIndex);
    if (JSON.stringify(replayed.match) !== JSON.stringify(call.match))
      throw new Error(`the step counter disagrees with RegExp on /${call.source}/${call.flags}`);
    steps += replayed.steps;
  }
  return steps;
}
