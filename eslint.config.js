// ESLint flat config: typed rules, and the folder contract of docs/architecture.md "Layers" and
// "Allowed imports", enforced here rather than by good intentions (test/lint-boundaries.test.ts
// checks that a violation fails).
import { builtinModules } from "node:module";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

/** The folders of src/ that play the role of packages; each has an index.ts as its public API. */
const FOLDERS = [
  "events",
  "plan",
  "config",
  "backends",
  "tools",
  "engine",
  "session",
  "store",
  "sessions",
  "logs",
  "runner",
  "ui/plain",
  "ui/terminal",
  "ui/web",
  "server",
  "tracing",
  "setup",
  "eval",
  "commands",
];

/** Folders a folder may not import from at all (docs/architecture.md "Allowed imports"). */
const BANNED = {
  events: FOLDERS.filter((folder) => folder !== "events"),
  // The plan's rules (checks, schedule, Markdown) read only the plan's types, so the engine, the
  // store and the session can all use them.
  plan: FOLDERS.filter((folder) => folder !== "events" && folder !== "plan"),
  config: [
    "backends",
    "tools",
    "engine",
    "session",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  backends: [
    "tools",
    "engine",
    "session",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  tools: [
    "engine",
    "session",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  // The engine imports nothing above it: it is given its backends, clock, tools and sinks.
  engine: [
    "session",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  // The pure view model (reducer, state, JSON views, wording) sits below the store and the
  // sessions registry (no session ↔ store cycle); the browser page bundles it.
  session: [
    "backends",
    "engine",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  store: ["engine", "sessions", "logs", "runner", "ui", "server", "tracing", "commands", "eval"],
  // The memory-sessions registry (files, locks, archive): made from the view model, written by
  // the store's atomic write; the commands and the runner use it.
  sessions: [
    "backends",
    "tools",
    "engine",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "setup",
    "commands",
    "eval",
  ],
  logs: ["backends", "tools", "engine", "runner", "ui", "server", "tracing", "commands", "eval"],
  // The runner prepares and starts runs, and holds the one turn every front door runs (runTurn:
  // the commands and the server alike), so it imports none of them.
  runner: ["logs", "ui", "server", "tracing", "commands", "eval"],
  "ui/plain": [
    "backends",
    "engine",
    "runner",
    "server",
    "tracing",
    "commands",
    "ui/terminal",
    "eval",
  ],
  "ui/terminal": ["backends", "engine", "runner", "server", "tracing", "commands", "eval"],
  // The browser page: it bundles the reducer, the event types and the trace lines, and the
  // server's wire types (type-only); nothing that needs Node.
  "ui/web": [
    "config",
    "backends",
    "tools",
    "engine",
    "sessions",
    "logs",
    "runner",
    "tracing",
    "setup",
    "commands",
    "ui/terminal",
    "eval",
  ],
  server: ["ui/terminal", "commands", "setup", "eval"],
  // Tracing is one more subscriber of the live run: it reads events and state, never the engine.
  tracing: [
    "backends",
    "tools",
    "engine",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "setup",
    "commands",
    "eval",
  ],
  // The wizard and --select ask questions and write config files; the commands run what they chose.
  setup: [
    "backends",
    "tools",
    "engine",
    "session",
    "store",
    "sessions",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  // The eval runs teams through the runner, like a command; only commands use it.
  eval: ["engine", "ui/terminal", "server", "setup", "commands"],
  commands: [],
};

/** Modules the engine may not import: it does no I/O (CONTRIBUTING.md rule 1). */
const IO_MODULES = [
  "fs",
  "fs/promises",
  "net",
  "http",
  "https",
  "child_process",
  "process",
  "readline",
  "os",
].flatMap((name) => [name, `node:${name}`]);

/**
 * Folders the browser page bundles, so no Node built-in module may be imported there: the view
 * model (docs/architecture.md "Layers": files, locks and processes live in src/sessions/ and
 * src/store/) and the page itself.
 */
const NO_NODE = new Set(["session", "ui/web"]);

/** Node's built-in modules by their bare names (`node:`-prefixed ones are a pattern below). */
const NODE_MODULES = builtinModules.filter(
  (name) => !name.startsWith("_") && !name.startsWith("node:"),
);

/**
 * The no-restricted-imports options for files of `folder` (undefined: a root file). `direct`:
 * folders it may reach by naming their modules, not only through index.ts.
 */
function importRules(folder, { direct = [] } = {}) {
  const banned = folder ? BANNED[folder] : [];
  const patterns = banned.map((other) => ({
    group: [`**/${other}`, `**/${other}/**`],
    message: `docs/architecture.md "Allowed imports": src/${folder}/ may not import from src/${other}/.`,
  }));
  for (const other of FOLDERS) {
    if (other === folder || direct.includes(other)) continue;
    if (banned.some((name) => other === name || other.startsWith(`${name}/`))) continue;
    patterns.push({
      group: [`**/${other}/*`, `!**/${other}/index.js`],
      message: `Reach src/${other}/ through its index.ts (its public API); only a lazy import() may name one of its modules.`,
    });
  }
  const paths =
    folder === "engine"
      ? IO_MODULES.map((name) => ({
          name,
          message:
            "CONTRIBUTING.md rule 1: the engine does no I/O; inject it (backends, clock, sinks).",
        }))
      : [];
  if (NO_NODE.has(folder)) {
    const message = `docs/architecture.md "Layers": src/${folder}/ is bundled for the browser and imports no Node module; files, locks and processes belong in src/sessions/ or src/store/.`;
    for (const name of NODE_MODULES) paths.push({ name, message });
    patterns.push({ group: ["node:*"], message });
  }
  return ["error", { paths, patterns }];
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "agent_outputs/**", "test/fixtures/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true },
      ],
    },
  },
  ...FOLDERS.map((folder) => ({
    files: [`src/${folder}/**`],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    // The page goes through the index.ts of the pure folders it bundles (events/, session/); of
    // server/ and ui/plain/, whose index.ts re-export Node modules (the bundle would pull in
    // node:fs), it names the pure modules it uses (the server's wire types, trace lines, numbers).
    rules: {
      "no-restricted-imports": importRules(folder, {
        direct: folder === "ui/web" ? ["server", "ui/plain"] : [],
      }),
    },
  })),
  {
    // Root modules (clock.ts, errors.ts) go through the folders' index.ts like everyone; cli.ts,
    // the entry point, names the few small modules it needs so `coord --help` stays fast.
    files: ["src/*.ts"],
    ignores: ["src/cli.ts"],
    rules: { "no-restricted-imports": importRules(undefined) },
  },
  {
    // The view model is pure: no process either (the page has none).
    files: ["src/session/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "process", message: 'docs/architecture.md "Layers": the view model is pure.' },
      ],
    },
  },
  {
    files: ["src/engine/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-console": "error",
      "no-restricted-globals": [
        "error",
        { name: "process", message: "CONTRIBUTING.md rule 1: inject it." },
      ],
    },
  },
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
