/**
 * The shipped CLI (issue 19): `src/cli.ts` bundled by rolldown into `dist/bin/cli.js`, loaded by
 * the executable `dist/bin/coord.js` (`src/coord-bin.ts`) once it has turned on Node's module
 * compile cache (issue 29), plus lazily-loaded chunks in `dist/bin/chunks/` (the folder is emptied first), so a run loads a few dozen files instead of about 300
 * (Node 20 resolves, reads and compiles every ES module separately: that was most of a run's
 * start-up). The package's `bin` points at the bundle; `dist/src/` (tsc's output) stays for the
 * bench's in-process figures and for tooling.
 *
 * Bundled: coord's code and the pure-JavaScript libraries a run loads (zod, yaml, commander, the
 * ai SDK providers, …). External (loaded from node_modules as before): native and binary
 * packages, packages that find their own files next to them at run time, and the large,
 * rarely-used ones listed in EXTERNAL.
 */
import { defineConfig, type Plugin } from "rolldown";

/** Packages coord imports that stay in node_modules (a name, or a scope ending in `/`). */
const EXTERNAL = [
  "node-llama-cpp", // native binaries, found next to the package
  "@lydell/node-pty", // native
  "@anthropic-ai/claude-agent-sdk", // spawns the Claude Code binary next to it
  "ink", // the live terminal view, with React and yoga (WebAssembly)
  "react",
  "@xterm/", // files served to the browser, resolved with require.resolve
  "@opentelemetry/", // tracing: loaded only with --tracing
  "@modelcontextprotocol/sdk", // MCP servers: loaded only when a config has them
  "hono", // servers: coord serve / --web / viewer --web
  "@hono/",
  "open",
  "@clack/prompts",
];

const isExternal = (id: string): boolean =>
  id.startsWith("node:") ||
  EXTERNAL.some((name) =>
    name.endsWith("/") ? id.startsWith(name) : id === name || id.startsWith(`${name}/`),
  );

/**
 * CommonJS libraries bundled into ES modules call `require()` (rolldown gives them its own
 * `__require`) and some read `__filename` or `__dirname`: those names are declared, Node's own,
 * at the top of the chunks whose code uses them, and nowhere else (issue 29: as a banner they
 * cost every one of the ~60 chunks a run loads a `createRequire` and two URL conversions).
 */
const commonJsGlobals: Plugin = {
  name: "coord-commonjs-globals",
  renderChunk(code) {
    const uses = (name: string) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(code);
    const lines: string[] = [];
    if (uses("require")) {
      lines.push(
        'import { createRequire as __coordCreateRequire } from "node:module";',
        "const require = __coordCreateRequire(import.meta.url);",
      );
    }
    if (uses("__filename") || uses("__dirname")) {
      lines.push('import { fileURLToPath as __coordFileURLToPath } from "node:url";');
    }
    if (uses("__filename")) lines.push("const __filename = __coordFileURLToPath(import.meta.url);");
    if (uses("__dirname")) {
      lines.push('const __dirname = __coordFileURLToPath(new URL(".", import.meta.url));');
    }
    if (lines.length === 0) return null;
    // After a `#!` line, which must stay the first.
    const start = code.startsWith("#!") ? code.indexOf("\n") + 1 : 0;
    return `${code.slice(0, start)}${lines.join("\n")}\n${code.slice(start)}`;
  },
};

export default defineConfig({
  plugins: [commonJsGlobals],
  // The executable turns on the compile cache, then loads dist/bin/cli.js (src/coord-bin.ts);
  // cli.js stays next to it, so its path to package.json (the version) is the same.
  input: { coord: "src/coord-bin.ts", cli: "src/cli.ts" },
  platform: "node",
  external: isExternal,
  tsconfig: "tsconfig.build.json",
  output: {
    dir: "dist/bin",
    cleanDir: true,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
  },
  logLevel: "warn",
});
