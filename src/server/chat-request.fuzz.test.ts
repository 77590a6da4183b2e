/**
 * Property-based fuzz of the chat request parser and the app around it: thousands of generated
 * bodies — arbitrary JSON, near-valid chat requests with wrong types, roles, contents and models,
 * raw text — never produce a 5xx, a crash or a stack trace: every answer is a 2xx, or a 4xx (or the
 * spec's 501 for `stream: true`) in the OpenAI error shape with a one-line message.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "./api-error.js";
import { createApp } from "./app.js";
import { parseJsonBody, readChatRequest } from "./chat-request.js";
import { loadServedTeam, teamForModel, type ServedTeam } from "./served-team.js";

/** Values a JSON field may take, weighted towards the ones the parser looks at. */
const anyField = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constantFrom("user", "assistant", "system", "developer", "tool", "text", ""),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
);

/** A content part: mostly text parts, sometimes wrong. */
const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.string() }),
  fc.record({ type: fc.constantFrom("image_url", "text", "audio"), text: anyField }),
  anyField,
);

/** A message: right and wrong roles and contents, missing keys. */
const message = fc.oneof(
  fc.record(
    {
      role: fc.oneof(fc.constantFrom("user", "assistant", "system", "developer"), anyField),
      content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), anyField),
    },
    { requiredKeys: [] },
  ),
  anyField,
);

/** Bodies near the chat-completions shape, and arbitrary JSON. */
const body = fc.oneof(
  fc.record(
    {
      model: fc.oneof(fc.string(), anyField),
      messages: fc.oneof(fc.array(message, { maxLength: 5 }), anyField),
      stream: fc.oneof(fc.boolean(), anyField),
      temperature: anyField,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

/** Raw body text: JSON of the above, mangled JSON, or any text. */
const rawBody = fc.oneof(
  body.map((value) => JSON.stringify(value) ?? "null"),
  fc.tuple(body, fc.nat(), fc.string({ maxLength: 3 })).map(([value, at, noise]) => {
    const text = JSON.stringify(value) ?? "";
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + noise + text.slice(cut + 1);
  }),
  fc.string({ unit: "binary" }),
);

function expectCleanError(error: unknown): void {
  if (!(error instanceof ApiError)) throw error; // a crash: fails the property with its stack
  expect(error.status === 400 || error.status === 501, `${error.status} ${error.message}`).toBe(
    true,
  );
  expect(error.message).not.toMatch(/\n|\s+at \S+ \(/);
}

describe("fuzz: the chat request parser", () => {
  test("any body: a ChatRequest with a non-empty question, or a 400/501 ApiError", () => {
    fc.assert(
      fc.property(rawBody, (text) => {
        try {
          const request = readChatRequest(parseJsonBody(text));
          expect(typeof request.question).toBe("string");
          expect(request.question.trim()).not.toBe("");
          for (const turn of request.history) expect(["user", "assistant"]).toContain(turn.role);
        } catch (error) {
          expectCleanError(error);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe("fuzz: the app", () => {
  let scripted: ServedTeam;
  let cwd: string;
  beforeAll(async () => {
    scripted = await loadServedTeam("@examples/scripted_team", { cwd: process.cwd(), env: {} });
    cwd = await mkdtemp(join(tmpdir(), "coord-fuzz-"));
    await writeFile(
      join(cwd, "team.yaml"),
      "agents:\n  - id: one\n    backend: { type: scripted, steps: [{ answer: 'ok' }] }\n",
    );
  });

  test("any body and Content-Type: never a 5xx, always JSON, errors in the OpenAI shape", async () => {
    const app = createApp({ team: scripted, env: {}, cwd, version: "0.0.0" });
    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", ""),
        async (text, type) => {
          const response = await app.request("/v1/chat/completions", {
            method: "POST",
            headers: type === "" ? {} : { "content-type": type },
            body: text,
          });
          // 501 is the spec's answer to stream: true (section 7); no other 5xx.
          if (response.status !== 501) expect(response.status, text).toBeLessThan(500);
          expect(response.headers.get("content-type")).toContain("application/json");
          const json = (await response.json()) as { error?: { message: string } };
          if (response.status >= 400) expect(json.error!.message).not.toMatch(/\n|\s+at \S+ \(/);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("any model without a server config: a team or a 400, never a crash", async () => {
    const model = fc.oneof(
      fc.string(),
      fc.string().map((rest) => `path:${rest}`),
      fc.constantFrom("path:team.yaml", "path:./team.yaml", "path:/etc/passwd", "path:", "path:\0"),
      fc.string().map((rest) => `@examples/${rest}`),
      fc
        .tuple(
          fc.constantFrom("openai", "claude", "local", "scripted", "claude_code", "chatcompletion"),
          fc.string(),
        )
        .map(([backend, rest]) => `${backend}/${rest}`),
    );
    await fc.assert(
      fc.asyncProperty(model, async (name) => {
        try {
          const team = await teamForModel(name, { cwd, env: {} });
          expect(team.config.agents.length).toBeGreaterThan(0);
        } catch (error) {
          expectCleanError(error);
        }
      }),
      { numRuns: 500 },
    );
  });
});
