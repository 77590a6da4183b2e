/**
 * Property-based fuzz of the config loader: thousands of
 * generated YAML documents — configs near the real shape with wrong types, out-of-range numbers
 * (`1e309`, `.nan`, past the timer limit), odd URLs and `${VAR}` references; the same configs
 * mangled a character at a time; and arbitrary text — either load, or fail with a
 * {@link ConfigError} whose every line is `file:line:col: …` or a plain one-line message: never
 * another exception, never a stack trace.
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { parseConfigText } from "./load.js";

/** Numbers as YAML may spell them, including the ones that broke messages and timers. */
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, Infinity, -Infinity, Number.NaN, 2147483, 2147484, 3000000, 1e21),
);
const scalar = fc.oneof(
  number,
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("${UNSET_VAR}", "${HOME}", "${X:-default}", "$notavar", "file:///etc/passwd"),
);
/** Map keys, JavaScript's reserved ones and Object.prototype's members included. */
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 2 }),
  fc.dictionary(key, scalar, { maxKeys: 2 }),
);

const backend = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...BACKEND_TYPES), fc.string()),
    model: fc.oneof(fc.string(), value),
    base_url: fc.oneof(
      fc.constantFrom(
        "http://127.0.0.1:1/v1",
        "https://x.example/v1",
        "file:///etc/passwd",
        "ftp://x",
        "",
      ),
      fc.webUrl(),
      value,
    ),
    api_key: fc.oneof(fc.string(), value),
    temperature: number,
    max_tokens: number,
    steps: fc.oneof(
      fc.array(
        fc.record(
          { answer: fc.string(), vote: fc.string(), delay_ms: number, error: value, text: value },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
      value,
    ),
    extra_key: value,
  },
  { requiredKeys: [] },
);
/** A backend, sometimes with one more key: a reserved one right under `backend:` (row 15). */
const backendWithKey = fc
  .tuple(backend, fc.dictionary(key, value, { maxKeys: 1 }))
  .map(([fields, more]) => ({ ...fields, ...more }));

const config = fc.record(
  {
    agents: fc.oneof(
      fc.array(
        fc.record(
          {
            id: fc.oneof(fc.string(), value),
            backend: fc.oneof(backendWithKey, value),
            system_message: value,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      value,
    ),
    agent: fc.oneof(fc.record({ backend }, { requiredKeys: [] }), value),
    orchestrator: fc.oneof(
      fc.record(
        {
          voting_sensitivity: fc.oneof(fc.constantFrom("lenient", "strict"), value),
          max_new_answers_per_agent: number,
          presenter_agent: value,
          context_paths: value,
        },
        { requiredKeys: [] },
      ),
      value,
    ),
    timeout_settings: fc.oneof(
      fc.record(
        {
          orchestrator_timeout_seconds: number,
          request_timeout_seconds: number,
          first_byte_timeout_seconds: number,
          stream_idle_timeout_seconds: number,
          straggler_timeout_seconds: number,
        },
        { requiredKeys: [] },
      ),
      value,
    ),
    ui: value,
  },
  { requiredKeys: [] },
);

/** YAML text: a generated config, the same mangled, or any text. */
const document = fc.oneof(
  config.map((doc) => stringify(doc)),
  fc.tuple(config, fc.nat(), fc.string({ maxLength: 3 })).map(([doc, at, noise]) => {
    const text = stringify(doc);
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + noise + text.slice(cut + 1);
  }),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "agents: [{backend: {type: scripted}}]\ntimeout_settings: {request_timeout_seconds: 1e309}\n",
    "agents: &a [*a]\n",
    "a: !!binary x\n",
    "? [a]\n: b\n",
    "agents:\n  - <<: *missing\n",
    "%YAML 9.9\n---\nagents: []\n",
  ),
);

describe("fuzz: the config loader", () => {
  test("any YAML document: a config, or a ConfigError with positioned one-line problems", () => {
    fc.assert(
      fc.property(document, (text) => {
        try {
          const { config: loaded } = parseConfigText(text, {
            source: "team.yaml",
            env: { HOME: "/h" },
          });
          expect(loaded.agents.length).toBeGreaterThan(0);
          for (const seconds of Object.values(loaded.timeout_settings)) {
            expect(Number.isFinite(seconds) && seconds > 0 && seconds <= 2147483).toBe(true);
          }
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error; // a crash: fails with its stack
          for (const line of error.message.split("\n")) {
            expect(line).not.toMatch(/^\s+at \S|\(file:|node:internal/);
            expect(line.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 2000 },
    );
  }, 60_000); // hundreds of generated documents: seconds of CPU, more on a loaded machine
});
