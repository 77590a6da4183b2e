import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { globSync } from "tinyglobby";
import { configDefaults, defineConfig } from "vitest/config";

// Two projects, every test file in exactly one:
// - `unit`: everything that runs in process, no build needed, a short timeout (`npm run test:unit`);
// - `e2e`: the files that spawn the built CLI (`dist/bin/coord.js`), a pseudo-terminal, tmux or
//   Chromium, with the long timeout (`npm test` builds first).
// A file is end-to-end when it, or a test/support module it imports (at any depth), imports
// test/support/cli.ts (every kit that runs the CLI builds on it), node-pty or playwright, or when
// it reads the built tree (`dist/bin`, `dist/web`).
const TEST_FILES = ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"];
const E2E_IMPORT = /^(?:@lydell\/node-pty|playwright-core)$/;
const BUILT_TREE = /\bdist\/(?:bin|web)\b/;
const ROOT = fileURLToPath(new URL(".", import.meta.url));
const SUPPORT = join(ROOT, "test", "support");
const CLI_KIT = join(SUPPORT, "cli.ts");

/** The relative imports and the packages a TypeScript file names. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)].map(
    (match) => (match[1] ?? match[2])!,
  );
}

const spawns = new Map<string, boolean>();
/** Whether `file` runs the built CLI, a pty or Chromium, itself or through test/support. */
function isEndToEnd(file: string): boolean {
  const known = spawns.get(file);
  if (known !== undefined) return known;
  spawns.set(file, false); // an import cycle adds nothing
  const text = readFileSync(file, "utf8");
  const found = importsOf(text).some((specifier) => {
    if (E2E_IMPORT.test(specifier)) return true;
    if (!specifier.startsWith(".")) return false;
    const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
    if (target === CLI_KIT) return true;
    return target.startsWith(SUPPORT) && isEndToEnd(target);
  });
  spawns.set(file, found || BUILT_TREE.test(text));
  return spawns.get(file)!;
}

const endToEnd = globSync(TEST_FILES, { cwd: ROOT }).filter((file) => isEndToEnd(join(ROOT, file)));

// COORD_TEST_RESULTS (set by .ci/run) also writes one JSON report for both projects there, from
// which CI prints its `N passed, N failed` line.
const resultsFile = process.env.COORD_TEST_RESULTS;

export default defineConfig({
  test: {
    pool: "forks",
    reporters: resultsFile ? ["default", "json"] : ["default"],
    ...(resultsFile ? { outputFile: { json: resultsFile } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...endToEnd],
          testTimeout: 10_000,
          hookTimeout: 10_000,
          // The unit tests run first, on their own, so the end-to-end tests' processes cannot
          // starve them past their short timeout.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: endToEnd,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
