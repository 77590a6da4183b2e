/**
 * Adding a provider is one descriptor: this walks every descriptor and checks that each place a
 * provider's facts are read knows it — the schema's enum, the config reference, the key checks,
 * the setup wizard, the host table, the registry's factories, pricing and tracing.
 * (`./descriptors-scan.test.ts` checks that no other source file writes those facts by hand.)
 */
import { createRequire } from "node:module";
import type * as GenaiPrices from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { BACKEND_FACTORIES } from "../../backends/providers/index.js";
import { priceFor } from "../../backends/pricing.js";
import { PRICE_PACKAGE } from "../../backends/price-data.js";
import { providerName } from "../../tracing/attributes.js";
import { CHAT_COMPLETIONS_BACKEND_TYPES, unreadBackendKeys } from "../backend-key-support.js";
import { BackendConfig } from "../backend-schema.js";
import { BACKEND_TYPES } from "../backend-types.js";
import { CHAT_PROVIDERS } from "../chat-providers.js";
import { configJsonSchema, renderConfigReference } from "../docs.js";
import { defaultModelOf, inferBackendType } from "../quick-setup.js";
import { PROVIDER_IDS, PROVIDERS } from "../providers.js";
import { offlineEnv, OFFLINE_KEY_PLACEHOLDER } from "../../commands/validate-offline.js";
import { webSearchWarning } from "../../setup/template-step.js";
import { generationKeys } from "../generation-schema.js";
import { providerOptionKeys } from "../provider-options-schema.js";
import { KEY_VARIABLES, PROVIDER_DESCRIPTORS, PROVIDER_HOSTS, type ProviderHost } from "./index.js";

const prices = createRequire(import.meta.url)(PRICE_PACKAGE) as typeof GenaiPrices;

const TYPES = PROVIDER_DESCRIPTORS.map((descriptor) => [descriptor.type, descriptor] as const);

/** The JSON Schema's enum of `agents[].backend.type`. */
function schemaEnum(): unknown[] {
  type Node = { properties?: Record<string, Node>; items?: Node; enum?: unknown[] };
  const root = configJsonSchema() as Node;
  return root.properties?.agents?.items?.properties?.backend?.properties?.type?.enum ?? [];
}

describe("every provider descriptor is known everywhere", () => {
  it("lists each type once, and the types are exactly the descriptors'", () => {
    const types = PROVIDER_DESCRIPTORS.map((descriptor) => descriptor.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...BACKEND_TYPES]).toEqual(types);
  });

  it.each(TYPES)("%s: the schema, its JSON Schema and the reference accept it", (type) => {
    expect(BackendConfig.safeParse({ type, model: "m" }).success).toBe(true);
    expect(schemaEnum()).toContain(type);
    expect(renderConfigReference()).toContain(`\`"${type}"\``);
  });

  it.each(TYPES)("%s: the reference names its key variables and default base URL", (type, d) => {
    const reference = renderConfigReference();
    for (const variable of [...d.keyVariables, ...(d.alsoReads ?? [])]) {
      expect(reference).toContain(variable);
    }
    if (d.keyVariables.length > 0 || d.implementation === "chat_completions") {
      expect(reference).toContain(`\`${type}\``);
    }
    if (d.defaultBaseUrl !== undefined && d.implementation !== "openai") {
      // The native providers' URLs are their SDKs' defaults; the Chat Completions ones are listed.
      if (d.capabilities.chatCompletions && d.type !== "zai") {
        expect(reference).toContain(d.defaultBaseUrl);
      }
    }
  });

  it.each(TYPES)("%s: the key checks read its capabilities", (type, d) => {
    const unread = (block: Record<string, unknown>) =>
      unreadBackendKeys({ type, ...block }).map((key) => key.path.join("."));
    expect(CHAT_COMPLETIONS_BACKEND_TYPES.includes(type)).toBe(d.capabilities.chatCompletions);
    expect(unread({ api_key: "k" }).includes("api_key")).toBe(d.capabilities.inProcess);
    expect(unread({ enable_web_search: true }).includes("enable_web_search")).toBe(
      !d.capabilities.webSearch,
    );
    expect(unread({ enable_code_execution: true }).includes("enable_code_execution")).toBe(
      !d.capabilities.codeExecution,
    );
    expect(unread({ reasoning: { effort: "low" } }).includes("reasoning")).toBe(
      !d.capabilities.reasoning,
    );
    if (d.capabilities.chatCompletions) {
      expect(unread({ top_k: 5 }).includes("top_k")).toBe(!d.capabilities.topK);
      expect(unread({ chat_template_kwargs: {} }).includes("chat_template_kwargs")).toBe(
        !d.capabilities.chatTemplateKwargs,
      );
    }
    expect(CHAT_PROVIDERS.some((provider) => provider.type === type)).toBe(
      d.implementation === "hosted_chat",
    );
  });

  it.each(TYPES)("%s: quick setup's default model and the wizard's agree", (type, d) => {
    expect(defaultModelOf(type)).toBe(d.defaultModel);
    if (d.modelNames !== undefined && d.defaultModel !== undefined) {
      expect(inferBackendType(d.defaultModel)).toBe(type);
    }
    if (d.setup !== undefined && d.defaultModel !== undefined) {
      expect(d.setup.fastModels[0]).toBe(d.defaultModel);
    }
  });

  it.each(TYPES)("%s: the wizard offers it exactly when it has a setup offer", (type, d) => {
    const offered = PROVIDERS.find((provider) => provider.id === type);
    expect(PROVIDER_IDS.includes(type as never)).toBe(d.setup !== undefined);
    if (d.setup === undefined || offered === undefined) return expect(offered).toBeUndefined();
    expect(offered).toMatchObject({
      label: d.label,
      keyVariables: d.keyVariables,
      fastModels: d.setup.fastModels,
      strongModels: d.setup.strongModels,
      keyCheck: { path: d.setup.keyCheck.path, header: d.setup.keyCheck.header },
    });
    // Its agents' type is a backend type, and web search is that type's capability.
    expect(BACKEND_TYPES).toContain(offered.backend);
    const agents = PROVIDER_DESCRIPTORS.find((descriptor) => descriptor.type === offered.backend)!;
    expect(offered.webSearch).toBe(agents.capabilities.webSearch);
    if (offered.webSearch) expect(webSearchWarning()).toContain(d.label);
    else expect(webSearchWarning()).not.toContain(d.label);
    if (d.setup.endpointVariable !== undefined) {
      expect(d.alsoReads).toContain(d.setup.endpointVariable.name);
    }
  });

  it("the wizard's order is each offer's own, and no two share a place", () => {
    const orders = PROVIDERS.map((provider) => descriptorOrder(provider.id));
    expect(new Set(orders).size).toBe(orders.length);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });

  it.each(TYPES)("%s: its hosts are in the host table, with its name and key", (type, d) => {
    for (const host of d.hosts ?? []) {
      const domain = typeof host === "string" ? host : host.domain;
      const rows = PROVIDER_HOSTS.filter((row) => row.domain === domain);
      expect(rows, `${domain} is listed once`).toHaveLength(1);
      const own: ProviderHost = typeof host === "string" ? { domain } : host;
      expect(rows[0]).toEqual({
        domain,
        provider: own.provider ?? type,
        keyVariable: own.keyVariable ?? d.keyVariables[0],
      });
    }
  });

  it.each(TYPES)("%s: validate --offline fills its key variables", async (_type, d) => {
    const filled = await offlineEnv({}, undefined);
    for (const variable of [...d.keyVariables, ...(d.hosts ?? []).flatMap(hostKey)]) {
      expect(KEY_VARIABLES).toContain(variable);
      expect(filled[variable]).toBe(OFFLINE_KEY_PLACEHOLDER);
    }
    if (d.setup?.endpointVariable !== undefined) {
      expect(filled[d.setup.endpointVariable.name]).toMatch(/^https:\/\//);
    }
  });

  it.each(TYPES)("%s: the schema's hosted tool descriptions name it by capability", (type, d) => {
    const described = (schema: { description?: string | undefined }) => schema.description ?? "";
    expect(described(providerOptionKeys.enable_web_search)).toContain(
      d.capabilities.webSearch ? `\`${type}\`` : "",
    );
    const webSearchTypes = described(providerOptionKeys.enable_web_search).split(":")[0]!;
    const codeTypes = described(providerOptionKeys.enable_code_execution).split(":")[0]!;
    const templateTypes = described(generationKeys.chat_template_kwargs).split(" (")[0]!;
    expect(webSearchTypes.includes(`\`${type}\``)).toBe(d.capabilities.webSearch);
    expect(codeTypes.includes(`\`${type}\``)).toBe(d.capabilities.codeExecution);
    expect(templateTypes.includes(`\`${type}\``)).toBe(d.capabilities.chatTemplateKwargs);
  });

  it.each(TYPES)("%s: the registry has its implementation's factory", (_type, d) => {
    expect(BACKEND_FACTORIES[d.implementation]).toBeTypeOf("function");
  });

  it.each(TYPES)("%s: pricing bills it by its price source", (type, d) => {
    const source = d.price;
    if (source.kind === "free") {
      const price = priceFor({ type, model: "m" });
      expect(price?.source).toBe(source.why);
      expect(price?.cost({ inputTokens: 9, outputTokens: 9 } as never, 0)).toBe(0);
    } else if (source.kind === "list") {
      const listed = prices.findProvider({ providerId: source.provider });
      expect(listed?.id, `genai-prices has no provider ${source.provider}`).toBe(source.provider);
      // A model by its id, or by the name its API reports (`accounts/fireworks/models/…`).
      const names = listed!.models.flatMap((entry) => [
        entry.id,
        ...(typeof entry.match === "object" && "equals" in entry.match ? [entry.match.equals] : []),
      ]);
      const model = names.find((name) => priceFor({ type, model: name }) !== undefined);
      expect(model, `no model of ${source.provider} is priced for ${type}`).toBeDefined();
      expect(priceFor({ type, model: model! })?.source).toContain(`: ${source.provider} `);
    } else {
      // Priced by the provider its base_url names: DeepSeek's API bills DeepSeek's list.
      const price = priceFor({
        type,
        model: "deepseek-chat",
        base_url: "https://api.deepseek.com",
      });
      expect(price?.source).toContain(": deepseek deepseek-chat");
      expect(priceFor({ type, model: "m", base_url: "http://127.0.0.1:8000/v1" })).toBeUndefined();
    }
  });

  it.each(TYPES)("%s: tracing names its provider", (type, d) => {
    expect(providerName(type)).toBe(d.tracing.providerName);
  });
});

/** A host's key variable (a host given as a string uses its descriptor's first). */
function hostKey(host: string | { keyVariable?: string }): string[] {
  return typeof host === "string" || host.keyVariable === undefined ? [] : [host.keyVariable];
}

/** The wizard's place of the offered type `id`. */
function descriptorOrder(id: string): number {
  return PROVIDER_DESCRIPTORS.find((descriptor) => descriptor.type === id)!.setup!.order;
}
