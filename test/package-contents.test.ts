/**
 * What the npm package ships, read from `npm pack --dry-run --json` on the
 * built tree (`npm test` builds first): the bundled CLI and its chunks, the browser page, the
 * examples, the shipped tiny model, the JSON schema, README and LICENSE; no tsc output, tests or bench. Every module the
 * shipped code imports is either shipped itself or a package the manifest declares (a dependency,
 * or an optional peer the backend that needs it names when it is missing).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

interface Manifest {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const OPTIONAL_PEERS = ["@anthropic-ai/claude-agent-sdk", "node-llama-cpp"];

let files: string[];

beforeAll(() => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const packed = JSON.parse(out) as { files: { path: string }[] }[];
  files = packed[0]!.files.map((file) => file.path);
}, 60_000);

/** The package name of a bare import specifier (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

describe("the npm package", () => {
  it("ships the CLI, the browser page, examples, the tiny model, the schema, README and LICENSE", () => {
    const expected = ["dist/bin/coord.js", "config.schema.json", "LICENSE", "README.md"];
    // the tiny model `--backend local` runs without --model (src/runner/default-model.ts)
    expected.push("models/stories260K.gguf");
    for (const path of expected) {
      expect(files).toContain(path);
    }
    expect(files).toContain("dist/web/index.html");
    expect(files).toContain("dist/web/share/index.html");
    expect(files.some((path) => path.startsWith("dist/bin/chunks/"))).toBe(true);
    expect(files.some((path) => path.startsWith("examples/") && path.endsWith(".yaml"))).toBe(true);
  });

  it("ships no tsc output, tests, bench or sources", () => {
    const unused = files.filter((path) =>
      /^(dist\/(src|test|bench)|src|test|bench|docs|packaging)\//.test(path),
    );
    expect(unused).toEqual([]);
    expect(
      files.filter((path) => path.startsWith("dist/") && !/^dist\/(bin|web)\//.test(path)),
    ).toEqual([]);
  });

  it("every import of the shipped CLI is shipped or declared in package.json", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
    const shipped = new Set(files);
    const builtins = new Set(builtinModules);
    const missingFiles: string[] = [];
    const undeclared = new Set<string>();
    for (const path of files.filter((p) => p.startsWith("dist/bin/") && p.endsWith(".js"))) {
      // comment lines left out: bundled libraries' JSDoc says `import("./argument.js")` in types
      const code = readFileSync(join(root, path), "utf8")
        .split("\n")
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join("\n");
      const specifiers = [
        // static imports and re-exports at the start of a line (rolldown's output), side-effect
        // imports, and dynamic import() of a string literal (the lazily loaded chunks)
        ...code.matchAll(/^(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']/gm),
        ...code.matchAll(/^import\s*["']([^"']+)["']/gm),
        ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
      ].map((match) => match[1]!);
      for (const specifier of specifiers) {
        // an absolute path is a browser import in a page the server sends (`/assets/xterm.mjs`)
        if (specifier.startsWith("/")) continue;
        if (specifier.startsWith(".")) {
          const target = posix.normalize(posix.join(posix.dirname(path), specifier));
          if (!shipped.has(target)) missingFiles.push(`${path} → ${specifier}`);
        } else if (!specifier.startsWith("node:") && !builtins.has(specifier)) {
          const name = packageOf(specifier);
          if (!(name in manifest.dependencies) && !(name in manifest.peerDependencies)) {
            undeclared.add(name);
          }
        }
      }
    }
    expect(missingFiles).toEqual([]);
    expect([...undeclared]).toEqual([]);
  });

  it("the optional peers are only ever imported lazily, so a chunk loads without them", () => {
    // A static import of an optional peer anywhere in the bundle would fail with Node's
    // ERR_MODULE_NOT_FOUND when the chunk loads, before the backend could name the package.
    const staticImports: string[] = [];
    for (const path of files.filter((p) => p.startsWith("dist/bin/") && p.endsWith(".js"))) {
      const code = readFileSync(join(root, path), "utf8");
      for (const match of code.matchAll(
        /^(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']/gm,
      )) {
        if (OPTIONAL_PEERS.includes(packageOf(match[1]!)))
          staticImports.push(`${path}: ${match[0]}`);
      }
    }
    expect(staticImports).toEqual([]);
  });

  it("the Claude Agent SDK and node-llama-cpp are optional peers, not dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
    for (const name of OPTIONAL_PEERS) {
      expect(manifest.dependencies).not.toHaveProperty(name);
      expect(manifest.peerDependencies).toHaveProperty(name);
      expect(manifest.peerDependenciesMeta[name]?.optional).toBe(true);
    }
  });
});
