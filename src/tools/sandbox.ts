/**
 * The operating-system sandbox of `execute_command` (docs/tools.md "Commands"): bubblewrap
 * (`bwrap`, Debian's `bubblewrap` package) on Linux. A command sees the whole filesystem
 * read-only, writes only in its workspace (and the context paths it may write), gets a private
 * `/tmp` and `HOME`, cannot see coord's `~/.config/coord` (its `.env`) nor the usual credential
 * stores of the home folder, has no network unless the config allows it, and lives in its own
 * PID namespace that dies with coord.
 *
 * {@link findSandbox} probes once per process whether bwrap works here; {@link sandboxArgs} builds
 * the bwrap command line.
 */
import { execFile } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { delimiter, join, sep } from "node:path";

/** `HOME` inside the sandbox: a folder of its private `/tmp`. */
export const SANDBOX_HOME = "/tmp/home";
/** `TMPDIR` inside the sandbox: its private `/tmp` (a tmpfs, gone when the command ends). */
export const SANDBOX_TMP = "/tmp";

/**
 * Files and folders of the operator's home that a command never sees (hidden behind an empty
 * tmpfs or /dev/null): coord's own settings (`.env` with the provider keys) and common
 * credential stores. Relative to the home folder.
 */
export const HIDDEN_IN_HOME = [
  ".config/coord",
  ".config/gh",
  ".ssh",
  ".aws",
  ".gnupg",
  ".docker",
  ".kube",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
] as const;

/** Whether the sandbox works on this machine, and which bwrap to use. */
export type SandboxProbe = { ok: true; bwrap: string } | { ok: false; reason: string };

/** One folder (or file) the sandbox mounts over the read-only filesystem. */
export interface SandboxMount {
  path: string;
  /** `rw`: bound read-write; `ro`: bound read-only; `hidden`: an empty tmpfs (a file: /dev/null). */
  access: "rw" | "ro" | "hidden";
}

const probes = new Map<string, Promise<SandboxProbe>>();

/**
 * Probes bubblewrap once per process (per bwrap path): not Linux, no `bwrap` on `PATH` (or at
 * `COORD_BWRAP_PATH`, which tests use to simulate a machine without it), or a bwrap that fails
 * `bwrap --ro-bind / / --unshare-all … true` (e.g. user namespaces disabled) is
 * `{ok: false, reason}`. Never throws.
 */
export function findSandbox(
  env: Readonly<Record<string, string | undefined>>,
): Promise<SandboxProbe> {
  if (process.platform !== "linux") {
    return Promise.resolve({
      ok: false,
      reason: `coord's command sandbox (bubblewrap) needs Linux; this is ${process.platform}`,
    });
  }
  const bwrap = env.COORD_BWRAP_PATH ?? onPath("bwrap", env.PATH);
  if (bwrap === undefined) {
    return Promise.resolve({ ok: false, reason: "bubblewrap (`bwrap`) is not installed" });
  }
  let probe = probes.get(bwrap);
  if (probe === undefined) {
    probe = runProbe(bwrap, env.PATH);
    probes.set(bwrap, probe);
  }
  return probe;
}

function runProbe(bwrap: string, path: string | undefined): Promise<SandboxProbe> {
  const args = [...baseArgs(), "--unshare-all", "--die-with-parent", "--", "true"];
  return new Promise((resolve) => {
    execFile(
      bwrap,
      args,
      { env: { PATH: path ?? "/usr/bin:/bin" }, timeout: 10_000 },
      (error, _stdout, stderr) => {
        if (error === null) return resolve({ ok: true, bwrap });
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === "ENOENT"
            ? `${bwrap} does not exist`
            : `${bwrap} failed its probe: ${String(stderr).trim() || error.message}`;
        resolve({ ok: false, reason: why });
      },
    );
  });
}

/** The first executable `name` in the `PATH` folders, if any. */
function onPath(name: string, path: string | undefined): string | undefined {
  for (const folder of (path ?? "/usr/local/bin:/usr/bin:/bin").split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The filesystem every command starts from: `/` read-only, fresh /dev, /proc and /tmp, and an
 * empty /run (also /var/run): a read-only mount does not stop `connect()` to a Unix socket, and
 * /run holds the host's (Docker's, D-Bus's, PostgreSQL's, the users' session sockets).
 */
function baseArgs(): string[] {
  return [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--tmpfs", "/tmp", "--tmpfs", "/run"],
  ];
}

/** What /run must keep for name resolution when the network is on. */
const RESOLVER_FOLDERS = ["/run/systemd/resolve", "/run/resolvconf"];

/** Options of {@link sandboxArgs}. */
export interface SandboxArgsOptions {
  /** The command's working directory (the agent's workspace), bound read-write. */
  workspace: string;
  /** Other folders: context paths (`rw` or `ro`), folders to hide (`hidden`). */
  mounts: readonly SandboxMount[];
  /** The operator's home folders (`$HOME`, the account's): {@link HIDDEN_IN_HOME} is hidden there. */
  homes: readonly string[];
  /** Keep the host's network (`command_network: true`); default off (a private loopback only). */
  network: boolean;
  /** The program and its arguments, e.g. `["/bin/sh", "-c", "ls"]`. */
  command: readonly string[];
  /** File descriptor bwrap writes its JSON info to (`child-pid`); none when undefined. */
  infoFd?: number;
}

/**
 * The bwrap arguments that run `options.command` in the sandbox. Mounts are applied from the
 * shallowest path to the deepest, so the deepest folder decides (as for the file tools: a
 * workspace inside a hidden folder is visible, a protected file inside a writable context path
 * is read-only). Paths that do not exist are left out; the others are resolved (symlinks).
 */
export function sandboxArgs(options: SandboxArgsOptions): string[] {
  const mounts: SandboxMount[] = [...options.mounts, { path: options.workspace, access: "rw" }];
  for (const home of options.homes) {
    for (const name of HIDDEN_IN_HOME) mounts.push({ path: join(home, name), access: "hidden" });
  }
  if (options.network) {
    for (const path of RESOLVER_FOLDERS) mounts.push({ path, access: "ro" });
  }
  const resolved = mounts.flatMap((mount) => {
    const real = realPath(mount.path);
    return real === undefined ? [] : [{ ...mount, path: real }];
  });
  const depth = (path: string) => path.split(sep).filter((part) => part !== "").length;
  resolved.sort((first, second) => depth(first.path) - depth(second.path));
  const args = [...baseArgs(), "--dir", SANDBOX_HOME];
  for (const mount of resolved) {
    if (mount.access === "rw") args.push("--bind", mount.path, mount.path);
    else if (mount.access === "ro") args.push("--ro-bind", mount.path, mount.path);
    else if (isDirectory(mount.path)) args.push("--tmpfs", mount.path);
    else args.push("--ro-bind", "/dev/null", mount.path);
  }
  args.push("--chdir", realPath(options.workspace) ?? options.workspace);
  args.push("--unshare-all");
  if (options.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session");
  if (options.infoFd !== undefined) args.push("--info-fd", String(options.infoFd));
  args.push("--", ...options.command);
  return args;
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
