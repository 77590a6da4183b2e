/**
 * The working-directory context (spec section 4.1 `--cwd-context`, the terminal UI's `Ctrl+P`):
 * off, read-only or read-write access for the agents to the current directory, set as an entry
 * of `orchestrator.context_paths` for the next run.
 */
import type { Config } from "../config/index.js";

/** `off`, `read` (read-only) or `write` (read-write). */
export type CwdContext = "off" | "read" | "write";

/** `ro`/`read` → read, `rw`/`write` → write; undefined → off. */
export function parseCwdContext(flag: string | undefined): CwdContext {
  if (flag === undefined) return "off";
  if (flag === "ro" || flag === "read") return "read";
  if (flag === "rw" || flag === "write") return "write";
  throw new Error(`--cwd-context ${flag}: expected ro, rw, read or write`);
}

/** The next state of the `Ctrl+P` cycle: off → read → write → off. */
export function nextCwdContext(current: CwdContext): CwdContext {
  return current === "off" ? "read" : current === "read" ? "write" : "off";
}

/** `off`, `read-only`, `read-write`: how the status bar says it. */
export function describeCwdContext(context: CwdContext): string {
  return context === "off" ? "off" : context === "read" ? "read-only" : "read-write";
}

/**
 * The config with `cwd` in `orchestrator.context_paths` at the given permission (an existing
 * entry for `cwd` is replaced, keeping its protected paths); the config unchanged for `off`.
 * Never mutates `config`.
 */
export function withCwdContext(config: Config, context: CwdContext, cwd: string): Config {
  if (context === "off") return config;
  const existing = config.orchestrator.context_paths.find((entry) => entry.path === cwd);
  const others = config.orchestrator.context_paths.filter((entry) => entry !== existing);
  return {
    ...config,
    orchestrator: {
      ...config.orchestrator,
      context_paths: [
        ...others,
        { path: cwd, permission: context, protected_paths: existing?.protected_paths ?? [] },
      ],
    },
  };
}
