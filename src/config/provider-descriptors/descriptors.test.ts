/**
 * Adding a provider is one descriptor: this walks every descriptor and checks that each place a
 * provider's facts are read knows it — the schema's enum, the config reference, the key checks,
 * the registry's factories, pricing and tracing — and that no other source file lists backend
 * types by hand (a list beside the descriptors is how facts drift apart).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type * as GenaiPrices from "@pydantic/genai-prices";
import { globSync } from "tinyglobby";
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
import { packageRoot } from "../examples.js";
import { defaultModelOf, inferBackendType } from "../quick-setup.js";
import { PROVIDERS } from "../providers.js";
import { PROVIDER_DESCRIPTORS } from "./index.js";

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
    const offered = PROVIDERS.find(
      (provider) => provider.backend === type && provider.baseUrl === undefined,
    );
    if (offered !== undefined) expect(offered.keyVariables).toEqual(d.keyVariables);
    if (offered !== undefined && d.defaultModel !== undefined) {
      expect(offered.fastModels[0]).toBe(d.defaultModel);
    }
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

/**
 * Source files that still name several backend types together, and why. Each entry is a place
 * where provider facts are not (yet) read from the descriptors; the list only shrinks.
 */
const KNOWN_LISTS: Readonly<Record<string, string>> = {
  "src/backends/providers/index.ts": "keyed by implementation, whose names some types share",
  "src/backends/hosted-chat.ts": "a switch over ai SDK package names (groq, fireworks, cerebras)",
  "src/config/providers.ts":
    "the wizard's PROVIDER_IDS and PROVIDER_HOSTS (chatcompletion's key by host; hosts of providers without a type)",
};

/** Files under src/ (tests and the descriptors aside) that list ≥ 3 backend types by hand. */
function filesListingTypes(): Map<string, string[]> {
  const types = new Set<string>(BACKEND_TYPES);
  const root = packageRoot();
  const files = globSync(["src/**/*.{ts,tsx}"], {
    cwd: root,
    ignore: ["**/*.test.ts", "**/*.test.tsx", "src/config/provider-descriptors/**"],
  });
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const groups = [
      // Array literals: ["openai", "claude", "gemini"].
      ...[...text.matchAll(/\[[^[\]]*\]/g)].map((match) => match[0]),
      // Switch cases and object keys across the file: case "openai": / openai: "…".
      [...text.matchAll(/case "([a-z_]+)":/g)].map((match) => `"${match[1]}"`).join(" "),
      [...text.matchAll(/^\s+"?([a-z_]+)"?: /gm)].map((match) => `"${match[1]}"`).join(" "),
    ];
    for (const group of groups) {
      const named = new Set(
        [...group.matchAll(/"([a-z_]+)"/g)]
          .map((match) => match[1]!)
          .filter((name) => types.has(name)),
      );
      if (named.size >= 3) found.set(file, [...named]);
    }
  }
  return found;
}

describe("no hand-written lists of backend types outside the descriptors", () => {
  it("finds such lists only in the known files", () => {
    const found = filesListingTypes();
    const unexpected = [...found.keys()].filter((file) => !Object.hasOwn(KNOWN_LISTS, file));
    expect(unexpected, "read the types from PROVIDER_DESCRIPTORS instead").toEqual([]);
  });

  it("the scan sees a hand-written list (it would catch a new one)", () => {
    const text = 'const TYPES = ["openai", "claude", "gemini"];';
    const named = [...text.matchAll(/"([a-z_]+)"/g)].filter((match) =>
      (BACKEND_TYPES as readonly string[]).includes(match[1]!),
    );
    expect(named).toHaveLength(3);
    // And the known files still hold one each (an entry whose list is gone must be removed).
    expect(Object.keys(KNOWN_LISTS).filter((file) => !filesListingTypes().has(file))).toEqual([]);
  });
});
