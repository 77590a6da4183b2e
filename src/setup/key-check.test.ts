import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../test/support/fake-anthropic-server.js";
import { sendJson, startFakeHttpServer } from "../../test/support/fake-http.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
} from "../../test/support/fake-openai-server.js";
import { providerById } from "../config/index.js";
import { checkProviderKey, checkUrl } from "./key-check.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("checkProviderKey", () => {
  it("lists OpenAI's models at OPENAI_BASE_URL with the key as a bearer token", async () => {
    const server = await startFakeOpenAIServer(coordinationHandler());
    closers.push(() => server.close());
    const result = await checkProviderKey(
      providerById("openai"),
      { OPENAI_API_KEY: "sk-test" },
      { env: { OPENAI_BASE_URL: server.url } },
    );
    expect(result).toEqual({ status: "ok" });
    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ["GET", "/v1/models"],
    ]);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  });

  it("sends Anthropic's key and version headers; a bare ANTHROPIC_BASE_URL gets /v1", async () => {
    const server = await startFakeAnthropicServer([]);
    closers.push(() => server.close());
    const result = await checkProviderKey(
      providerById("claude"),
      { ANTHROPIC_API_KEY: "sk-ant" },
      { env: { ANTHROPIC_BASE_URL: server.origin } },
    );
    expect(result).toEqual({ status: "ok" });
    expect(server.requests[0]).toMatchObject({ path: "/v1/models" });
    expect(server.requests[0]!.headers).toMatchObject({
      "x-api-key": "sk-ant",
      "anthropic-version": "2023-06-01",
    });
  });

  it("tells a refused key from other answers, and never puts the key in a message", async () => {
    const statuses = [401, 403, 404];
    const server = await startFakeHttpServer(async (_request, res) => {
      sendJson(res, statuses.shift()!, { error: { message: "no" } });
    });
    closers.push(() => server.close());
    const check = () =>
      checkProviderKey(
        providerById("grok"),
        { XAI_API_KEY: "xai-secret" },
        { env: { XAI_BASE_URL: `${server.origin}/v1` } },
      );
    const host = new URL(server.origin).host;
    expect(await check()).toEqual({ status: "rejected", detail: `HTTP 401 from ${host}` });
    expect(await check()).toEqual({ status: "rejected", detail: `HTTP 403 from ${host}` });
    expect(await check()).toEqual({ status: "unknown", detail: `HTTP 404 from ${host}` });
    expect(server.requests.map((request) => request.path)).toEqual([
      "/v1/models",
      "/v1/models",
      "/v1/models",
    ]);
  });

  it("reports a server that does not answer as unreachable", async () => {
    const server = await startFakeHttpServer(async () => undefined);
    const origin = server.origin;
    await server.close();
    const result = await checkProviderKey(
      providerById("openai"),
      { OPENAI_API_KEY: "sk-x" },
      { env: { OPENAI_BASE_URL: `${origin}/v1` } },
    );
    expect(result).toMatchObject({ status: "unreachable" });
    expect(JSON.stringify(result)).not.toContain("sk-x");
  });

  it("checks Azure below the endpoint typed with the key, with an api-key header", async () => {
    const server = await startFakeHttpServer(async (_request, res) =>
      sendJson(res, 200, { data: [] }),
    );
    closers.push(() => server.close());
    const result = await checkProviderKey(
      providerById("azure_openai"),
      { AZURE_OPENAI_API_KEY: "az", AZURE_OPENAI_ENDPOINT: `${server.origin}/openai/v1/` },
      { env: {} },
    );
    expect(result).toEqual({ status: "ok" });
    expect(server.requests[0]).toMatchObject({ path: "/openai/v1/models" });
    expect(server.requests[0]!.headers["api-key"]).toBe("az");
  });

  it("throws when its signal is aborted (Ctrl+C), rather than calling it unreachable", async () => {
    const server = await startFakeHttpServer(
      () => new Promise<void>(() => undefined), // never answers
    );
    closers.push(() => server.close());
    const controller = new AbortController();
    const pending = checkProviderKey(
      providerById("openai"),
      { OPENAI_API_KEY: "k" },
      { env: { OPENAI_BASE_URL: `${server.origin}/v1` }, signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});

describe("checkUrl", () => {
  it("uses each provider's default base, or the override variable", () => {
    expect(checkUrl(providerById("openai"), {}, {})).toBe("https://api.openai.com/v1/models");
    expect(checkUrl(providerById("gemini"), {}, {})).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models",
    );
    expect(checkUrl(providerById("openrouter"), {}, {})).toBe("https://openrouter.ai/api/v1/key");
    expect(checkUrl(providerById("openai"), {}, { OPENAI_BASE_URL: "http://h:1/x/v1/" })).toBe(
      "http://h:1/x/v1/models",
    );
    expect(() => checkUrl(providerById("openai"), {}, { OPENAI_BASE_URL: "nope" })).toThrow(
      "OPENAI_BASE_URL=nope is not a URL",
    );
  });
});
