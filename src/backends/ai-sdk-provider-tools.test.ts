import { describe, expect, it } from "vitest";
import { toCallArguments } from "./ai-sdk-request.js";
import { withProviderTools } from "./ai-sdk-stream.js";
import type { ModelRequest } from "./backend.js";

const hosted = {
  web_search: { type: "provider", id: "x.web_search", args: { maxUses: 2 } },
} as never;
const names = (tools: { name: string }[] | undefined) => (tools ?? []).map((tool) => tool.name);

function args(overrides: Partial<ModelRequest>) {
  return toCallArguments({
    system: "",
    messages: [{ role: "user", content: "q" }],
    tools: [{ name: "new_answer", description: "d", inputSchema: { type: "object" } }],
    toolChoice: "required",
    ...overrides,
  });
}

describe("withProviderTools", () => {
  it("offers hosted tools beside the request's tools under the same choice", () => {
    const merged = withProviderTools(args({}), hosted, "required");
    expect(names(merged.tools)).toEqual(["web_search", "new_answer"]);
    expect(merged.tools?.[0]).toEqual({
      type: "provider",
      name: "web_search",
      id: "x.web_search",
      args: { maxUses: 2 },
    });
    expect(merged.toolChoice).toEqual({ type: "required" });
  });

  it("offers them with auto when the request has no tools, and never on a none call", () => {
    const alone = withProviderTools(args({ tools: [], toolChoice: "auto" }), hosted, "auto");
    expect(names(alone.tools)).toEqual(["web_search"]);
    expect(alone.toolChoice).toEqual({ type: "auto" });
    const none = withProviderTools(args({ toolChoice: "none" }), hosted, "none");
    expect(names(none.tools)).toEqual(["new_answer"]);
    const presentation = args({ tools: [], toolChoice: "none" });
    expect(withProviderTools(presentation, hosted, "none")).toEqual(presentation);
    expect(withProviderTools(args({}), undefined, "required")).toEqual(args({}));
  });
});
