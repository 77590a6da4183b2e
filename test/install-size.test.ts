import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  globalInstallRow,
  installSizeRows,
  measureInstall,
  unneededPackages,
} from "../bench/install-size.js";

let root: string;

/** Writes a file of `bytes` bytes (creating its folders). */
function file(path: string, bytes: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), "x".repeat(bytes));
}

/** Writes a package.json; its length counts toward the package's size, so it is returned. */
function manifest(dir: string, content: object): number {
  const text = JSON.stringify(content);
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, "package.json"), text);
  return text.length;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "coord-install-size-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("measureInstall", () => {
  test("production is the dependency closure by Node resolution; whole is every file; largest first", () => {
    manifest(".", {
      dependencies: { a: "1", shared: "1" },
      optionalDependencies: { gone: "1" },
      devDependencies: { dev: "1" },
    });
    // a depends on b (its own nested copy wins over the hoisted one), shared, a peer, and two
    // optional peers: one installed (npm keeps it then), one not.
    const a = manifest("node_modules/a", {
      dependencies: { b: "2", shared: "1" },
      optionalDependencies: { "@x/native-other": "1" },
      peerDependencies: { peer: "1", maybe: "1", present: "1" },
      peerDependenciesMeta: { maybe: { optional: true }, present: { optional: true } },
    });
    file("node_modules/a/index.js", 1000);
    const nestedB = manifest("node_modules/a/node_modules/b", { name: "b", version: "2" });
    file("node_modules/a/node_modules/b/index.js", 300);
    const hoistedB = manifest("node_modules/b", { name: "b", version: "1" });
    file("node_modules/b/big.bin", 5000);
    const shared = manifest("node_modules/shared", {});
    file("node_modules/shared/lib/deep/x.js", 70);
    const peer = manifest("node_modules/peer", {});
    const present = manifest("node_modules/present", {});
    const dev = manifest("node_modules/dev", { dependencies: { b: "1" } });
    file("node_modules/dev/tool.js", 2000);
    // A platform package reached through a link to a folder outside node_modules.
    const stub = manifest("stub", { name: "stub", os: ["linux"] });
    mkdirSync(join(root, "node_modules/@x"), { recursive: true });
    symlinkSync(join(root, "stub"), join(root, "node_modules/@x/native-other"));
    file("node_modules/.package-lock.json", 11);

    const measured = measureInstall(root);

    const production = a + 1000 + nestedB + 300 + shared + 70 + peer + present + stub;
    expect(measured.production.bytes).toBe(production);
    expect(measured.production.packages).toBe(6);
    expect(measured.production.missing).toEqual([]);
    expect(measured.production.platform.map((entry) => [entry.name, entry.bytes])).toEqual([
      ["@x/native-other", stub],
    ]);
    expect(measured.whole.bytes).toBe(production + hoistedB + 5000 + dev + 2000 + 11);
    expect(measured.whole.packages).toBe(8);
    expect(measured.largest.map((entry) => entry.name)).toEqual(["b", "dev", "a", "b", "shared"]);
    expect(measured.largest[0]!.bytes).toBe(hoistedB + 5000);
  });

  test("a required dependency absent from every node_modules on the way up is reported missing", () => {
    manifest(".", { dependencies: { a: "1" }, optionalDependencies: { b: "1" } });
    manifest("node_modules/a", { dependencies: { c: "1" } });
    const measured = measureInstall(root);
    expect(measured.production.missing).toEqual(["c"]);
    expect(measured.production.packages).toBe(1);
  });

  test("the bench rows name the platform packages and compare with the starting point", () => {
    manifest(".", { dependencies: { a: "1" } });
    manifest("node_modules/a", { cpu: ["x64"] });
    file("node_modules/a/a.node", 2_500_000);
    const rows = installSizeRows(root, { COORD_BENCH_GLOBAL_INSTALL: "0" });
    expect(rows.map((row) => row.figure)).toEqual([
      "install: production dependencies (npm ci --omit=dev)",
      "install: production with @anthropic-ai/claude-agent-sdk (the claude_code backend)",
      "install: production with node-llama-cpp (the local backend)",
      "install: whole node_modules (npm ci)",
      "install: largest package 1: a",
      "install: global install of the packed tarball (npm install -g coord-*.tgz)",
    ]);
    expect(rows[0]!.value).toBe("2.5 MB, 1 packages");
    expect(rows[0]!.note).toMatch(/^platform packages counted: a 2\.5 MB$/);
    // neither optional part is installed here: the rows add nothing
    expect(rows[1]!.value).toBe("2.5 MB, 1 packages");
    expect(rows[1]!.note).toBe("+0.0 MB");
    expect(rows[3]!.ratio).toMatch(/^0\.00× 1\.\d\d GB$/);
    expect(rows[5]!.value).toBe("skipped"); // COORD_BENCH_GLOBAL_INSTALL=0
  });

  test("the root's optional peers stay out of production; each one is added on request", () => {
    manifest(".", {
      dependencies: { a: "1" },
      peerDependencies: { sdk: "1", llama: "1" },
      peerDependenciesMeta: { sdk: { optional: true }, llama: { optional: true } },
      devDependencies: { sdk: "1", llama: "1" },
    });
    const a = manifest("node_modules/a", {});
    const sdk = manifest("node_modules/sdk", { dependencies: { "sdk-binary": "1" } });
    const binary = manifest("node_modules/sdk-binary", { os: ["linux"] });
    file("node_modules/sdk-binary/claude", 9000);
    const llama = manifest("node_modules/llama", {});
    file("node_modules/llama/addon.node", 4000);

    expect(measureInstall(root).production.bytes).toBe(a);
    const withSdk = measureInstall(root, ["sdk"]).production;
    expect(withSdk.bytes).toBe(a + sdk + binary + 9000);
    expect(withSdk.platform.map((entry) => entry.name)).toEqual(["sdk-binary"]);
    expect(measureInstall(root, ["llama"]).production.bytes).toBe(a + llama + 4000);
    expect(measureInstall(root).whole.bytes).toBe(a + sdk + binary + 9000 + llama + 4000);
  });

  test("a global install that npm cannot make is a row with npm's reason, not a figure", () => {
    manifest(".", { dependencies: { "not-a-package-anywhere-xyz": "1" } }); // no name: npm pack refuses
    const row = globalInstallRow(root, { ...process.env, COORD_BENCH_GLOBAL_INSTALL: "1" });
    expect(row.value).toBe("unavailable");
    expect(row.note).toMatch(/^offline install failed: \S/);
  }, 60_000);

  test("the optional parts and GPU builds are what a global install must not carry", () => {
    expect(
      unneededPackages([
        "zod",
        "node-llama-cpp",
        "@node-llama-cpp/linux-x64-cuda",
        "@anthropic-ai/claude-agent-sdk",
        "@anthropic-ai/claude-agent-sdk-linux-x64",
        "@anthropic-ai/sdk",
      ]),
    ).toEqual([
      "node-llama-cpp",
      "@node-llama-cpp/linux-x64-cuda",
      "@anthropic-ai/claude-agent-sdk",
      "@anthropic-ai/claude-agent-sdk-linux-x64",
    ]);
  });
});
