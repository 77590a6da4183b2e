// ESLint flat config: typed rules, and the folder contract of ARCHITECTURE.md "Layout" and
// "Allowed imports", enforced here rather than by good intentions (test/lint-boundaries.test.ts
// checks that a violation fails).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

/** The folders of src/ that play the role of packages; each has an index.ts as its public API. */
const FOLDERS = [
  "events",
  "config",
  "backends",
  "tools",
  "engine",
  "session",
  "store",
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

/** Folders a folder may not import from at all (ARCHITECTURE.md "Allowed imports"). */
const BANNED = {
  events: FOLDERS.filter((folder) => folder !== "events"),
  config: [
    "backends",
    "tools",
    "engine",
    "session",
    "store",
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
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  // The engine imports nothing above it: it is given its backends, clock, tools and sinks.
  engine: ["session", "store", "logs", "runner", "ui", "server", "tracing", "commands", "eval"],
  // The reducer and the sessions registry sit below the store (no session ↔ store cycle).
  session: [
    "backends",
    "engine",
    "store",
    "logs",
    "runner",
    "ui",
    "server",
    "tracing",
    "commands",
    "eval",
  ],
  store: ["engine", "logs", "runner", "ui", "server", "tracing", "commands", "eval"],
  logs: ["backends", "tools", "engine", "runner", "ui", "server", "tracing", "commands", "eval"],
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

/** Modules the engine may not import: it does no I/O (STYLE.md rule 1). */
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

/** The no-restricted-imports options for files of `folder` (undefined: a root file). */
function importRules(folder, { throughIndex = true } = {}) {
  const banned = folder ? BANNED[folder] : [];
  const patterns = banned.map((other) => ({
    group: [`**/${other}`, `**/${other}/**`],
    message: `ARCHITECTURE.md "Allowed imports": src/${folder}/ may not import from src/${other}/.`,
  }));
  if (throughIndex) {
    for (const other of FOLDERS) {
      if (other === folder || banned.some((name) => other === name || other.startsWith(`${name}/`)))
        continue;
      patterns.push({
        group: [`**/${other}/*`, `!**/${other}/index.js`],
        message: `Reach src/${other}/ through its index.ts (its public API); only a lazy import() may name one of its modules.`,
      });
    }
  }
  const paths =
    folder === "engine"
      ? IO_MODULES.map((name) => ({
          name,
          message: "STYLE.md rule 1: the engine does no I/O; inject it (backends, clock, sinks).",
        }))
      : [];
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
    // The page cannot go through index.ts files that re-export Node modules (the bundle would
    // pull in node:fs): it names the pure modules it uses.
    rules: { "no-restricted-imports": importRules(folder, { throughIndex: folder !== "ui/web" }) },
  })),
  {
    // Root modules (clock.ts, errors.ts) go through the folders' index.ts like everyone; cli.ts,
    // the entry point, names the few small modules it needs so `coord --help` stays fast.
    files: ["src/*.ts"],
    ignores: ["src/cli.ts"],
    rules: { "no-restricted-imports": importRules(undefined) },
  },
  {
    files: ["src/engine/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-console": "error",
      "no-restricted-globals": [
        "error",
        { name: "process", message: "STYLE.md rule 1: inject it." },
      ],
    },
  },
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
