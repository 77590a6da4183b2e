/**
 * No request field is silently ignored, shown with the official `openai` npm
 * client over a real socket: what coord cannot serve (`tools`, `tool_choice: "required"`, `n > 1`,
 * `logprobs`) is a 400 naming the parameter; `response_format` json_schema is honoured (every
 * agent is told, the final answer is validated) and an answer that does not match is a 502, sent
 * once; `temperature`, `max_tokens` / `max_completion_tokens` and `stop` reach the provider of
 * every agent that takes them (a wrong value, or a team where no agent takes one, is a 400 naming
 * the field sent); `GET /v1/models/{id}` answers.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { createApp } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { echoHandler, echoTeamConfig } from "./support/echo-team.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

let server: RunningServer | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  await provider?.close();
  server = provider = undefined;
});

/** Serves the team of `yaml` and returns the SDK client (default retries) and the access log. */
async function serveYaml(yaml: string) {
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-fields-"));
  await writeFile(join(cwd, "team.yaml"), yaml);
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const log: string[] = [];
  server = await startServer(
    createApp({ team, cwd, env: {}, version: "0.0.0-test", onLog: (line) => log.push(line) }),
    { host: "127.0.0.1", port: 0 },
  );
  return { client: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" }), log };
}

/** One scripted agent whose answer is `answer`; it checks the JSON instruction reached it. */
const oneAgent = (answer: string, expected: readonly string[] = []) => `
agents:
  - id: solo
    backend:
      type: scripted
      steps:
        - answer: ${JSON.stringify(answer)}
          expect_prompt_contains: ${JSON.stringify(expected)}
`;

const question = [{ role: "user" as const, content: "Which is the largest city of France?" }];

const CITY_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer" } },
  required: ["city", "population"],
  additionalProperties: false,
};
const cityFormat = {
  type: "json_schema" as const,
  json_schema: { name: "city", schema: CITY_SCHEMA, strict: true },
};

async function failure(promise: Promise<unknown>) {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(OpenAI.APIError);
  return caught as InstanceType<typeof OpenAI.APIError>;
}

describe("request fields coord cannot serve are refused, naming the parameter", () => {
  test.each([
    ["tools", { tools: [{ type: "function", function: { name: "f", parameters: {} } }] }],
    ["tool_choice", { tool_choice: "required" }],
    ["n", { n: 2 }],
    ["logprobs", { logprobs: true }],
    ["top_logprobs", { top_logprobs: 2 }],
  ])("%s: 400 saying what coord serves", async (param, fields) => {
    const { client, log } = await serveYaml(oneAgent("Paris."));
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        ...(fields as object),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe(param);
    expect(error.code).toBe("unsupported_parameter");
    expect(error.message).toContain("its team's final answer as the assistant's text");
    expect(log.filter((line) => line.includes("POST /v1/chat/completions 400"))).toHaveLength(1);
  });

  test("tool_choice auto without tools and response_format text are what coord does anyway", async () => {
    const { client } = await serveYaml(oneAgent("Paris."));
    const completion = await client.chat.completions.create({
      model: "coord",
      messages: question,
      tool_choice: "auto",
      response_format: { type: "text" },
      n: 1,
      logprobs: false,
    });
    expect(completion.choices[0]!.message.content).toBe("Paris.");
  });
});

describe("response_format json_schema is honoured", () => {
  test("the agent is told the schema; a fenced answer comes back as the JSON the client parses", async () => {
    const { client } = await serveYaml(
      oneAgent('Here it is:\n```json\n{"city": "Paris", "population": 2102650}\n```', [
        "exactly one JSON object",
        '"population"',
      ]),
    );
    const completion = await client.chat.completions.parse({
      model: "coord",
      messages: question,
      response_format: cityFormat,
    });
    const message = completion.choices[0]!.message;
    expect(JSON.parse(message.content!)).toEqual({ city: "Paris", population: 2102650 });
    expect(message.parsed).toEqual({ city: "Paris", population: 2102650 });
  });

  test("an answer that does not match the schema is a 502 naming the field, sent once", async () => {
    const { client, log } = await serveYaml(
      oneAgent('{"city": "Paris", "population": "2 million"}'),
    );
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        response_format: cityFormat,
      }),
    );
    expect(error.status).toBe(502);
    expect(error.code).toBe("invalid_structured_output");
    expect(error.message).toContain("population");
    expect(error.headers?.get("x-should-retry")).toBe("false");
    expect(log.filter((line) => line.includes("POST /v1/chat/completions"))).toHaveLength(1);
  });

  test("json_object: prose is a 502, never sent as the answer", async () => {
    const { client } = await serveYaml(oneAgent("Paris, of course."));
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        response_format: { type: "json_object" },
      }),
    );
    expect(error.status).toBe(502);
    expect(error.message).toContain("not a JSON object");
  });

  test("a schema zod cannot read is a 400 before any run", async () => {
    const { client } = await serveYaml(oneAgent("{}"));
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        response_format: {
          type: "json_schema",
          json_schema: { name: "bad", schema: { type: "no-such-type" } },
        },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("response_format.json_schema.schema");
  });
});

describe("generation parameters reach the agents", () => {
  test("temperature, max_completion_tokens and stop reach every model call of the team", async () => {
    provider = await startFakeOpenAIServer(echoHandler());
    const { client } = await serveYaml(echoTeamConfig(provider.url, 1));
    const completion = await client.chat.completions.create({
      model: "coord",
      messages: question,
      temperature: 0.7,
      max_completion_tokens: 321,
      stop: ["<END>"],
    });
    // The one agent's answer names the temperature its provider was asked with.
    expect(completion.choices[0]!.message.content).toBe(
      "Answer to: Which is the largest city of France? (temperature 0.7)",
    );
    expect(provider.requests.length).toBeGreaterThan(0);
    for (const request of provider.requests) {
      expect(request.body).toMatchObject({ temperature: 0.7, max_tokens: 321, stop: ["<END>"] });
    }
  });

  test("max_tokens alone, and stop as one string, reach every model call", async () => {
    provider = await startFakeOpenAIServer(echoHandler());
    const { client } = await serveYaml(echoTeamConfig(provider.url, 2));
    await client.chat.completions.create({
      model: "coord",
      messages: question,
      max_tokens: 77,
      stop: "<END>",
    });
    expect(provider.requests.length).toBeGreaterThan(0);
    for (const request of provider.requests) {
      // The backend sends a stop string as a one-element list: the same stop.
      expect(request.body).toMatchObject({ max_tokens: 77, stop: ["<END>"] });
    }
  });

  test("max_tokens and max_completion_tokens both sent: both checked, max_completion_tokens wins", async () => {
    provider = await startFakeOpenAIServer(echoHandler());
    const { client } = await serveYaml(echoTeamConfig(provider.url, 1));
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        max_tokens: 0,
        max_completion_tokens: 50,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("max_tokens");
    expect(provider.requests).toHaveLength(0);
    await client.chat.completions.create({
      model: "coord",
      messages: question,
      max_tokens: 10,
      max_completion_tokens: 50,
    });
    for (const request of provider.requests) expect(request.body.max_tokens).toBe(50);
  });

  test.each([
    ["temperature", { temperature: 2.5 }, "invalid_value"],
    ["temperature", { temperature: "hot" }, "invalid_value"],
    ["max_tokens", { max_tokens: 0 }, "invalid_value"],
    ["max_completion_tokens", { max_completion_tokens: 1.5 }, "invalid_value"],
    ["stop", { stop: 5 }, "invalid_type"],
    ["stop", { stop: ["ok", 1] }, "invalid_type"],
  ])("a wrong %s (%j) is a 400 naming it, before any run", async (param, fields, code) => {
    provider = await startFakeOpenAIServer(echoHandler());
    const { client, log } = await serveYaml(echoTeamConfig(provider.url, 1));
    const error = await failure(
      client.chat.completions.create({
        model: "coord",
        messages: question,
        ...(fields as object),
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.code).toBe(code);
    expect(provider.requests).toHaveLength(0);
    expect(log.filter((line) => line.includes("POST /v1/chat/completions"))).toHaveLength(1);
  });

  test.each([
    ["max_completion_tokens", { max_completion_tokens: 64 }],
    ["max_tokens", { max_tokens: 64 }],
    ["stop", { stop: ["<END>"] }],
  ])("a team where no agent takes it refuses %s, naming the field sent", async (param, fields) => {
    const { client } = await serveYaml(oneAgent("Paris."));
    const error = await failure(
      client.chat.completions.create({ model: "coord", messages: question, ...fields }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.code).toBe("unsupported_parameter");
  });

  test("a team where no agent takes temperature refuses it", async () => {
    const { client } = await serveYaml(oneAgent("Paris."));
    const error = await failure(
      client.chat.completions.create({ model: "coord", messages: question, temperature: 0.2 }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("temperature");
    expect(error.message).toContain("no agent of this team takes it");
  });
});

describe("GET /v1/models/{id}", () => {
  test("the served team's model object; an unknown id is the SDK's NotFoundError", async () => {
    const { client } = await serveYaml(oneAgent("Paris."));
    const model = await client.models.retrieve("coord/team");
    expect(model).toMatchObject({ id: "coord/team", object: "model", owned_by: "coord" });
    const error = await failure(client.models.retrieve("gpt-4o"));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.code).toBe("model_not_found");
  });
});
