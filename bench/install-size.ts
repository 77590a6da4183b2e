/**
 * Install size for `npm run bench`: how many bytes an install puts on disk.
 * Sizes are apparent sizes (the sum of regular files' lengths, as `du -sb` counts them, without
 * directory entries or symlinks), so they are deterministic on every file system; printed,
 * never asserted.
 *
 * - **production**: the closure of the root package.json's `dependencies` and
 *   `optionalDependencies` (not its optional peers: the Claude Agent SDK and node-llama-cpp, which
 *   the rows "with …" add one at a time), with the packages' peer dependencies (an optional peer counts when it
 *   is installed: npm then keeps it, e.g. typescript for node-llama-cpp), each name
 *   resolved the way Node resolves it (`node_modules` of the dependent's real directory, then of
 *   each parent up to the root), deduplicated by real path; a package's own size leaves out its
 *   nested `node_modules` (those packages count when reached). It is what `npm ci --omit=dev`
 *   keeps. Platform packages (those declaring `os` or `cpu`) are listed.
 * - **whole**: every file under `node_modules` (the dev install of `npm ci`).
 * - **largest**: the five largest installed packages by own size.
 * - **global install** of the packed tarball, offline from npm's cache ({@link globalInstallRow};
 *   `COORD_BENCH_GLOBAL_INSTALL=0` skips it).
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import type { Row } from "./table.js";

/** One installed package: name, real directory and own size in bytes (nested node_modules excluded). */
export interface PackageSize {
  name: string;
  dir: string;
  bytes: number;
}

/** The figures of {@link measureInstall}, all in bytes. */
export interface InstallSize {
  production: {
    bytes: number;
    packages: number;
    /** Packages in the closure that declare `os` or `cpu` (native binaries for one platform). */
    platform: PackageSize[];
    /** Required names no `node_modules` on the way up holds (an incomplete install). */
    missing: string[];
  };
  whole: { bytes: number; packages: number };
  /** The five largest installed packages, largest first. */
  largest: PackageSize[];
}

/** Own size of a directory: its regular files, recursively, skipping symlinks and `skip` children. */
function directoryBytes(dir: string, skip?: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === skip) continue;
    const path = join(dir, entry.name);
    if (entry.isFile()) total += lstatSync(path).size;
    else if (entry.isDirectory()) total += directoryBytes(path);
  }
  return total;
}

interface Manifest {
  name?: string;
  os?: unknown;
  cpu?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readManifest(dir: string): Manifest {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
  } catch {
    return {};
  }
}

/** Package directories directly in a `node_modules` folder (scoped ones one level down). */
function packageDirs(nodeModules: string): { name: string; path: string }[] {
  if (!existsSync(nodeModules)) return [];
  const found: { name: string; path: string }[] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(nodeModules, entry.name);
    if (entry.name.startsWith("@") && entry.isDirectory()) {
      for (const scoped of readdirSync(path)) {
        found.push({ name: `${entry.name}/${scoped}`, path: join(path, scoped) });
      }
    } else found.push({ name: entry.name, path });
  }
  return found.filter(({ path }) => statSync(path, { throwIfNoEntry: false })?.isDirectory());
}

/**
 * Measures the install under `root` (a folder with package.json and node_modules). The root's
 * optional peers (the Claude Agent SDK, node-llama-cpp) are left out of the production closure, as
 * a default install of coord leaves them out; `withPackages` adds installed packages to the
 * closure's roots (the figures "with each optional part").
 */
export function measureInstall(rootDir: string, withPackages: readonly string[] = []): InstallSize {
  const root = realpathSync(rootDir);
  const realNodeModules = realpathSync(join(root, "node_modules"));
  const tops = [root, dirname(realNodeModules)];
  const ownBytes = new Map<string, PackageSize>();
  const sizeOf = (name: string, path: string): PackageSize => {
    const dir = realpathSync(path);
    let size = ownBytes.get(dir);
    if (!size) {
      size = { name, dir, bytes: directoryBytes(dir, "node_modules") };
      ownBytes.set(dir, size);
    }
    return size;
  };

  // Every installed package, nested node_modules included (links are followed once, not walked).
  const pending = [join(root, "node_modules")];
  while (pending.length > 0) {
    for (const { name, path } of packageDirs(pending.pop()!)) {
      sizeOf(name, path);
      if (!lstatSync(path).isSymbolicLink()) pending.push(join(path, "node_modules"));
    }
  }

  const reached = new Map<string, PackageSize>();
  const missing = new Set<string>();
  const queue: { dir: string; manifest: Manifest }[] = [
    { dir: root, manifest: readManifest(root) },
  ];
  while (queue.length > 0) {
    const { dir, manifest } = queue.shift()!;
    const isRoot = dir === root;
    const optionalPeers = isRoot
      ? [...withPackages]
      : Object.keys(manifest.peerDependencies ?? {}).filter(
          (name) => manifest.peerDependenciesMeta?.[name]?.optional,
        );
    const peers = isRoot ? [] : Object.keys(manifest.peerDependencies ?? {});
    const required = [...Object.keys(manifest.dependencies ?? {}), ...peers];
    const optional = [...Object.keys(manifest.optionalDependencies ?? {}), ...optionalPeers];
    for (const name of new Set([...required, ...optional])) {
      const path = resolvePackage(tops, dir, name);
      if (!path) {
        if (required.includes(name) && !optional.includes(name)) missing.add(name);
        continue;
      }
      const size = sizeOf(name, path);
      if (reached.has(size.dir)) continue;
      reached.set(size.dir, size);
      queue.push({ dir: size.dir, manifest: readManifest(size.dir) });
    }
  }

  const closure = [...reached.values()];
  const all = [...ownBytes.values()];
  return {
    production: {
      bytes: closure.reduce((sum, size) => sum + size.bytes, 0),
      packages: closure.length,
      platform: closure
        .filter((size) => {
          const manifest = readManifest(size.dir);
          return manifest.os !== undefined || manifest.cpu !== undefined;
        })
        .sort((a, b) => b.bytes - a.bytes),
      missing: [...missing].sort(),
    },
    whole: {
      bytes: directoryBytes(realNodeModules) + outsideBytes(realNodeModules, all),
      packages: all.length,
    },
    largest: [...all].sort((a, b) => b.bytes - a.bytes).slice(0, 5),
  };
}

/**
 * Node's lookup of `name` from a package's real directory, climbing no higher than the install's
 * tops (the root, and the folder holding the real `node_modules` when that is a link).
 */
function resolvePackage(tops: readonly string[], from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (statSync(candidate, { throwIfNoEntry: false })?.isDirectory()) return candidate;
    const parent = dirname(dir);
    const inside = tops.some((top) => !relative(top, parent).startsWith(".."));
    if (tops.includes(dir) || parent === dir || !inside) return undefined;
    dir = parent;
  }
}

/** Bytes of linked packages whose real directory lies outside node_modules (e.g. a local stub). */
function outsideBytes(nodeModules: string, packages: readonly PackageSize[]): number {
  const inside = nodeModules + sep;
  return packages
    .filter((size) => !size.dir.startsWith(inside))
    .reduce((sum, size) => sum + size.bytes, 0);
}

/**
 * The whole `node_modules` of `npm ci` on Linux x64 at commit 61b4677, before node-llama-cpp's
 * GPU builds were overridden and the page-only packages moved to devDependencies, measured by
 * {@link measureInstall} (its production closure was 1.27 GB): the starting point every install
 * figure is compared with.
 */
export const BEFORE_BYTES = 1_397_473_876;

const size = (bytes: number) =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`;
const ofBefore = (bytes: number) => `${(bytes / BEFORE_BYTES).toFixed(2)}× ${size(BEFORE_BYTES)}`;

/** The optional peers, each with the backend type that needs it. */
const OPTIONAL_PARTS = [
  { name: "@anthropic-ai/claude-agent-sdk", backend: "claude_code" },
  { name: "node-llama-cpp", backend: "local" },
] as const;

/** A global install of the packed tarball in a temp prefix ({@link globalInstall}). */
export interface GlobalInstall {
  /** The temp folder holding the tarball and the prefix (`<dir>/prefix`); remove it when done. */
  dir: string;
  /** The installed `coord` command: `<prefix>/bin/coord`. */
  bin: string;
  /** `<prefix>/lib/node_modules/coord`. */
  packageDir: string;
  /** Bytes of the packed tarball. */
  tarballBytes: number;
  /** Bytes of `<prefix>/lib/node_modules` (apparent size, as {@link measureInstall} counts). */
  bytes: number;
  /** Packages installed under the prefix, nested ones included. */
  packages: string[];
}

/**
 * Packs `root` (`npm pack`) and installs the tarball globally into a new temp prefix without the
 * network: `npm install -g --prefix <tmp> --offline`, from npm's cache (which `npm ci` of this
 * repository fills with every dependency). The optional peers are not installed, as for a user
 * who runs `npm install -g coord`.
 *
 * @throws Error with npm's own message when packing or installing fails (e.g. `ENOTCACHED`: a
 *   dependency is not in npm's cache); the temp folder is removed then.
 */
export function globalInstall(root: string, env: NodeJS.ProcessEnv = process.env): GlobalInstall {
  const dir = mkdtempSync(join(tmpdir(), "coord-global-install-"));
  try {
    const npm = (args: string[]) =>
      execFileSync("npm", args, {
        cwd: root,
        encoding: "utf8",
        env,
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 64 * 1024 * 1024,
      });
    const packed = JSON.parse(
      npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir]),
    ) as { filename: string; size: number }[];
    const tarball = join(dir, packed[0]!.filename);
    const prefix = join(dir, "prefix");
    npm(["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball]);
    const nodeModules = join(prefix, "lib", "node_modules");
    const packages: string[] = [];
    const pending = [nodeModules];
    while (pending.length > 0) {
      for (const { name, path } of packageDirs(pending.pop()!)) {
        packages.push(name);
        pending.push(join(path, "node_modules"));
      }
    }
    return {
      dir,
      bin: join(prefix, "bin", "coord"),
      packageDir: join(nodeModules, "coord"),
      tarballBytes: packed[0]!.size,
      bytes: directoryBytes(nodeModules),
      packages,
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: unknown }).stderr;
    const npmError = typeof stderr === "string" ? stderr.trim().split("\n").slice(0, 3) : [];
    throw new Error(
      npmError.length > 0
        ? npmError.join(" ")
        : error instanceof Error
          ? error.message
          : String(error),
      { cause: error },
    );
  }
}

/** Packages of a global install that a config may not need: optional peers and GPU builds. */
export function unneededPackages(packages: readonly string[]): string[] {
  return packages.filter(
    (name) =>
      OPTIONAL_PARTS.some((part) => part.name === name) ||
      name.startsWith("@node-llama-cpp/") ||
      name.startsWith("@anthropic-ai/claude-agent-sdk-"),
  );
}

/**
 * The global install of the packed tarball ({@link globalInstall}): bytes of the prefix's
 * `lib/node_modules`. Offline, from npm's cache; about 20 s. `COORD_BENCH_GLOBAL_INSTALL=0`
 * skips it; a failed install is a row saying npm's reason.
 * @returns the row.
 */
export function globalInstallRow(root: string, env: NodeJS.ProcessEnv = process.env): Row {
  const figure = "install: global install of the packed tarball (npm install -g coord-*.tgz)";
  if (env.COORD_BENCH_GLOBAL_INSTALL === "0") {
    return { figure, value: "skipped", note: "COORD_BENCH_GLOBAL_INSTALL=0" };
  }
  let installed: GlobalInstall;
  try {
    installed = globalInstall(root, env);
  } catch (error) {
    return {
      figure,
      value: "unavailable",
      note: `offline install failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  try {
    const unneeded = unneededPackages(installed.packages);
    return {
      figure,
      value: `${size(installed.bytes)}, ${installed.packages.length} packages`,
      ratio: ofBefore(installed.bytes),
      note:
        `tarball ${size(installed.tarballBytes)}; ` +
        (unneeded.length > 0
          ? `optional parts present: ${unneeded.join(", ")}`
          : "no optional part, no GPU build (add one with npm install -g NAME)"),
    };
  } finally {
    rmSync(installed.dir, { recursive: true, force: true });
  }
}

/**
 * The bench rows: production closure (a default install), the same with each optional part,
 * whole node_modules, the five largest packages, the global install ({@link globalInstallRow}).
 */
export function installSizeRows(root: string, env: NodeJS.ProcessEnv = process.env): Row[] {
  const measured = measureInstall(root);
  const { production, whole } = measured;
  const platform = production.platform.map((entry) => `${entry.name} ${size(entry.bytes)}`);
  return [
    {
      figure: "install: production dependencies (npm ci --omit=dev)",
      value: `${size(production.bytes)}, ${production.packages} packages`,
      ratio: ofBefore(production.bytes),
      note:
        `platform packages counted: ${platform.join(", ") || "none"}` +
        (production.missing.length > 0
          ? `; missing (incomplete install): ${production.missing.slice(0, 5).join(", ")}` +
            (production.missing.length > 5 ? ` and ${production.missing.length - 5} more` : "")
          : ""),
    },
    ...OPTIONAL_PARTS.map(({ name, backend }) => {
      const { bytes, packages } = measureInstall(root, [name]).production;
      return {
        figure: `install: production with ${name} (the ${backend} backend)`,
        value: `${size(bytes)}, ${packages} packages`,
        ratio: ofBefore(bytes),
        note:
          `+${size(bytes - production.bytes)}` +
          (backend === "local" ? "; GPU builds overridden here (README)" : ""),
      };
    }),
    {
      figure: "install: whole node_modules (npm ci)",
      value: `${size(whole.bytes)}, ${whole.packages} packages`,
      ratio: ofBefore(whole.bytes),
      note: `before: ${size(BEFORE_BYTES)} (61b4677)`,
    },
    ...measured.largest.map((entry, index) => ({
      figure: `install: largest package ${index + 1}: ${entry.name}`,
      value: size(entry.bytes),
      ratio: ofBefore(entry.bytes),
    })),
    globalInstallRow(root, env),
  ];
}
