import { describe, expect, it } from "vitest";
import { BACKEND_TYPES } from "./backend-types.js";
import { detectProviderKeys, PROVIDERS, providersWithKeys } from "./providers.js";

describe("detectProviderKeys", () => {
  it("finds nothing in an environment without provider keys", () => {
    expect(detectProviderKeys({ PATH: "/bin", HOME: "/h", OPENAI_BASE_URL: "http://x" })).toEqual(
      [],
    );
  });

  it("lists set keys once, with their provider when the wizard knows it; blank ones do not count", () => {
    expect(
      detectProviderKeys({
        OPENAI_API_KEY: "sk-1",
        GOOGLE_API_KEY: "g",
        ANTHROPIC_API_KEY: "  ",
        GROQ_API_KEY: "gq",
        CLAUDE_CODE_OAUTH_TOKEN: "t",
      }),
    ).toEqual([
      { variable: "OPENAI_API_KEY", provider: "openai" },
      { variable: "GOOGLE_API_KEY", provider: "gemini" },
      { variable: "GROQ_API_KEY" },
      { variable: "CLAUDE_CODE_OAUTH_TOKEN" },
    ]);
  });

  it("counts Azure only with its endpoint", () => {
    expect(detectProviderKeys({ AZURE_OPENAI_API_KEY: "a" })).toEqual([]);
    expect(
      providersWithKeys({ AZURE_OPENAI_API_KEY: "a", AZURE_OPENAI_ENDPOINT: "https://r" }).map(
        (provider) => provider.id,
      ),
    ).toEqual(["azure_openai"]);
  });
});

describe("PROVIDERS", () => {
  it("names real backend types and at least one model of each kind", () => {
    for (const provider of PROVIDERS) {
      expect(BACKEND_TYPES).toContain(provider.backend);
      expect(provider.fastModels.length).toBeGreaterThan(0);
      expect(provider.strongModels.length).toBeGreaterThan(0);
      expect(provider.keyVariables.length).toBeGreaterThan(0);
    }
  });
});
