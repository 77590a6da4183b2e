/**
 * Drives a program in a real pseudo-terminal through tmux (a private server per instance, so
 * tests never touch the user's tmux): start a command in a pane of a given size, type, press
 * keys, read the screen with `capture-pane`, and wait for text to appear.
 */
import { execFileSync, spawnSync } from "node:child_process";

/** True when a tmux binary is on PATH. */
export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

/** One tmux server with one pane running `command`. */
export class TmuxPane {
  private readonly socket = `coord-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly target = "coord";

  /**
   * @param command a shell command line (run by tmux's default shell).
   * @param size the terminal's columns and rows.
   */
  constructor(
    command: string,
    size: { columns: number; rows: number } = { columns: 120, rows: 40 },
  ) {
    this.tmux(
      "new-session",
      "-d",
      "-s",
      this.target,
      "-x",
      String(size.columns),
      "-y",
      String(size.rows),
      command,
    );
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
      // CI runners may have no TERM; tmux needs one to start its server.
      env: { ...process.env, TERM: process.env.TERM || "xterm-256color" },
    });
  }

  /** The screen and its scrollback as text (wrapped lines joined). */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", this.target);
  }

  /** Types `text` literally (no key names), then Enter unless `enter` is false. */
  type(text: string, enter = true): void {
    this.tmux("send-keys", "-t", this.target, "-l", text);
    if (enter) this.keys("Enter");
  }

  /** Presses keys by tmux name: `Enter`, `C-c`, `C-p`, … */
  keys(...names: string[]): void {
    this.tmux("send-keys", "-t", this.target, ...names);
  }

  /**
   * Waits until the screen matches `pattern`.
   * @returns the screen that matched.
   * @throws Error with the last screen when `timeoutMs` passes first.
   */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = "";
    while (Date.now() < deadline) {
      screen = this.screen();
      if (typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen))
        return screen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${String(pattern)}; the screen was:\n${screen}`);
  }

  /** Stops the server and everything in it. */
  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}
