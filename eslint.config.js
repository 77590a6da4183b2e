// ESLint flat config: typed rules, and the import boundaries of ARCHITECTURE.md "Layout".
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

/** Folders a folder may not import from (ARCHITECTURE.md "Allowed imports"). */
const boundaries = {
  "src/events/**": [
    "config",
    "backends",
    "tools",
    "engine",
    "session",
    "store",
    "ui",
    "server",
    "commands",
  ],
  "src/engine/**": ["store", "ui", "server", "commands"],
  "src/ui/**": ["engine", "backends", "server", "commands", "runner"],
  "src/server/**": ["ui/terminal", "commands"],
  "src/backends/**": ["engine", "store", "ui", "server", "commands"],
  "src/config/**": ["engine", "store", "ui", "server", "commands"],
  "src/store/**": ["engine", "ui", "server", "commands"],
  "src/session/**": ["engine", "store", "ui", "server", "commands", "backends", "runner"],
  "src/runner/**": ["ui", "server", "commands"],
  "src/logs/**": ["engine", "backends", "tools", "ui", "server", "commands", "runner"],
};

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
    },
  },
  ...Object.entries(boundaries).map(([files, banned]) => ({
    files: [files],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: banned.map((folder) => ({
            group: [`**/${folder}/**`, `../${folder}/*`, `../../${folder}/*`],
            message: `ARCHITECTURE.md "Allowed imports": this folder may not import from src/${folder}.`,
          })),
        },
      ],
    },
  })),
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
