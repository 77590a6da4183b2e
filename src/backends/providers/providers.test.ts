/**
 * Every provider descriptor is known everywhere a provider's facts are read: the registry builds
 * each type through its descriptor's factory (one signature), and the result is that type's
 * backend. Adding a descriptor without a working factory fails here.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_DESCRIPTORS, type AgentConfig, type BackendConfig } from "../../config/index.js";
import { createBackend } from "../registry.js";
import { BACKEND_FACTORIES, withFactory } from "./index.js";

const REPO = join(import.meta.dirname, "..", "..", "..");

/** A backend block each type can be built from offline: a model, and a base URL where required. */
function blockOf(type: string): BackendConfig {
  const model = type === "local" ? join(REPO, "models", "stories260K.gguf") : "some-model";
  return {
    type,
    model,
    ...(type === "chatcompletion" ? { base_url: "http://127.0.0.1:9/v1" } : {}),
    ...(type === "azure_openai" ? { base_url: "https://example.openai.azure.com" } : {}),
  } as BackendConfig;
}

/** Every key variable any descriptor names, set. */
const ENV = Object.fromEntries(
  PROVIDER_DESCRIPTORS.flatMap((descriptor) => descriptor.keyVariables).map((name) => [name, "k"]),
);

describe("the registry reads the provider descriptors", () => {
  it("has a factory for every descriptor's implementation", () => {
    for (const descriptor of PROVIDER_DESCRIPTORS) {
      expect(BACKEND_FACTORIES[descriptor.implementation], descriptor.type).toBeTypeOf("function");
      expect(withFactory(descriptor).create).toBe(BACKEND_FACTORIES[descriptor.implementation]);
    }
  });

  it.each(PROVIDER_DESCRIPTORS.map((descriptor) => [descriptor.type]))(
    "builds a %s backend through its descriptor",
    async (type) => {
      const agent = { id: "agent_a", backend: blockOf(type) } as AgentConfig;
      const backend = await createBackend(agent, 0, { env: ENV, cwd: REPO });
      expect(backend.type).toBe(type);
    },
  );

  it("refuses a type no descriptor names, naming the agent", async () => {
    const agent = {
      id: "agent_a",
      backend: { type: "nope", model: "m" },
    } as unknown as AgentConfig;
    await expect(createBackend(agent, 1, { env: ENV, cwd: REPO })).rejects.toThrow(
      "agents[1] (agent_a): unknown backend type nope",
    );
  });

  it("names the key variable the descriptor lists first when no key is set", async () => {
    for (const descriptor of PROVIDER_DESCRIPTORS) {
      const [first] = descriptor.keyVariables;
      if (first === undefined) continue;
      const agent = { id: "agent_a", backend: blockOf(descriptor.type) } as AgentConfig;
      await expect(
        createBackend(agent, 0, { env: {}, cwd: REPO }),
        descriptor.type,
      ).rejects.toThrow(first);
    }
  });
});
