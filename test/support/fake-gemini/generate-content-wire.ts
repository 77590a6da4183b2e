/**
 * Gemini API wire format (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse` and
 * `:generateContent`), assembled from a {@link FakeReply}: SSE `data:` lines, each a
 * `GenerateContentResponse` (`candidates[0].content.parts`, `usageMetadata`, `modelVersion`,
 * `responseId`); thoughts are text parts with `thought: true`; function calls arrive whole in one
 * part; code execution as `executableCode` / `codeExecutionResult` parts; web search as
 * `groundingMetadata` on the last chunk; the last chunk carries `finishReason` and full usage.
 * Errors are `{"error": {code, message, status}}`.
 *
 * Shapes follow the Gemini API reference (recorded samples in `test/fixtures/wire/gemini/`) and
 * the zod `chunkSchema` in `@ai-sdk/google` (`src/google-generative-ai-language-model.ts`).
 */
import type { FakeReply } from "../fake-openai/fake-reply.js";
import {
  argumentsText,
  splitInto,
  splitWords,
  type CompleteUsage,
  type SseEvent,
} from "../fake-openai/wire-helpers.js";

/** The gRPC status name Google sends with an HTTP status. */
export function googleStatusName(status: number): string {
  if (status === 400) return "INVALID_ARGUMENT";
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 403) return "PERMISSION_DENIED";
  if (status === 404) return "NOT_FOUND";
  if (status === 429) return "RESOURCE_EXHAUSTED";
  if (status === 503) return "UNAVAILABLE";
  if (status === 504) return "DEADLINE_EXCEEDED";
  return "INTERNAL";
}

/**
 * Google's error body. A 429 with `retryAfter` (seconds) carries a `google.rpc.RetryInfo` detail
 * (`retryDelay: "37s"`), as the Gemini API sends it.
 */
export function googleErrorBody(
  status: number,
  error: { message: string; type?: string; retryAfter?: string | number },
): { error: { code: number; message: string; status: string; details?: unknown[] } } {
  const retrySeconds = typeof error.retryAfter === "number" ? error.retryAfter : undefined;
  return {
    error: {
      code: status,
      message: error.message,
      status: error.type ?? googleStatusName(status),
      ...(retrySeconds !== undefined
        ? {
            details: [
              {
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                retryDelay: `${retrySeconds}s`,
              },
            ],
          }
        : {}),
    },
  };
}

/** Gemini's `usageMetadata`: candidates exclude thoughts, which are counted apart. */
function usageMetadata(usage: CompleteUsage): Record<string, unknown> {
  const candidates = Math.max(0, usage.outputTokens - usage.reasoningTokens);
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedInputTokens > 0 ? { cachedContentTokenCount: usage.cachedInputTokens } : {}),
    ...(usage.reasoningTokens > 0 ? { thoughtsTokenCount: usage.reasoningTokens } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.inputTokens }],
  };
}

/** Gemini's `finishReason` (`STOP`, `MAX_TOKENS`, `SAFETY`, …); function calls also end in STOP. */
export function geminiFinishReason(reply: FakeReply): string {
  if (reply.finishReason === "length") return "MAX_TOKENS";
  if (reply.finishReason === "content_filter") return "SAFETY";
  if (reply.finishReason !== undefined && /^[A-Z_]+$/.test(reply.finishReason)) {
    return reply.finishReason;
  }
  return "STOP";
}

/** Parts in stream order, each list one chunk: thoughts, code execution, text words, calls. */
function partChunks(reply: FakeReply): Record<string, unknown>[][] {
  const chunks: Record<string, unknown>[][] = [];
  for (const piece of splitInto(reply.reasoning ?? "", 2)) {
    chunks.push([{ text: piece, thought: true }]);
  }
  for (const call of reply.providerToolCalls ?? []) {
    if (call.name !== "code_execution" || Array.isArray(call.result)) continue;
    chunks.push([
      {
        executableCode: {
          language: "PYTHON",
          code: typeof call.input.code === "string" ? call.input.code : "",
        },
      },
      {
        codeExecutionResult: {
          outcome: (call.result.returnCode ?? 0) === 0 ? "OUTCOME_OK" : "OUTCOME_FAILED",
          output: call.result.stdout,
        },
      },
    ]);
  }
  for (const word of splitWords(reply.text ?? "")) chunks.push([{ text: word }]);
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    functionCall: { name: call.name, args: JSON.parse(argumentsText(call)) as unknown },
    ...(index === 0 ? { thoughtSignature: "ZmFrZS1zaWduYXR1cmU=" } : {}),
  }));
  if (calls.length > 0) chunks.push(calls);
  return chunks;
}

/** `groundingMetadata` of a reply's web searches, if any. */
function groundingMetadata(reply: FakeReply): Record<string, unknown> | undefined {
  const searches = (reply.providerToolCalls ?? []).filter((call) => call.name === "web_search");
  if (searches.length === 0) return undefined;
  return {
    webSearchQueries: searches.map((call) =>
      typeof call.input.query === "string" ? call.input.query : "",
    ),
    searchEntryPoint: { renderedContent: "<!-- search widget -->" },
    groundingChunks: searches.flatMap((call) =>
      (Array.isArray(call.result) ? call.result : []).map((result) => ({
        web: { uri: result.url, title: result.title },
      })),
    ),
  };
}

/** The SSE events of one streamed response (`?alt=sse`: `data:` lines only). */
export function streamGenerateContentEvents(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): SseEvent[] {
  const chunks = partChunks(reply);
  const partial = { promptTokenCount: usage.inputTokens, totalTokenCount: usage.inputTokens };
  const events: SseEvent[] = chunks.map((parts) => ({
    data: {
      candidates: [{ content: { parts, role: "model" }, index: 0 }],
      usageMetadata: partial,
      modelVersion: model,
      responseId: "fake-response-01",
    },
  }));
  if (reply.streamError) {
    events.push({
      data: {
        error: {
          code: 503,
          message: reply.streamError.message,
          status: reply.streamError.type ?? "UNAVAILABLE",
        },
      },
    });
    return events;
  }
  const grounding = groundingMetadata(reply);
  events.push({
    data: {
      candidates: [
        {
          content: { parts: [{ text: "" }], role: "model" },
          finishReason: geminiFinishReason(reply),
          index: 0,
          ...(grounding ? { groundingMetadata: grounding } : {}),
        },
      ],
      usageMetadata: usageMetadata(usage),
      modelVersion: model,
      responseId: "fake-response-01",
    },
  });
  return events;
}

/** The non-streamed `GenerateContentResponse` of a reply (`:generateContent`). */
export function generateContentResponse(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): Record<string, unknown> {
  const grounding = groundingMetadata(reply);
  const parts = partChunks(reply).flat();
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        finishReason: geminiFinishReason(reply),
        index: 0,
        ...(grounding ? { groundingMetadata: grounding } : {}),
      },
    ],
    usageMetadata: usageMetadata(usage),
    modelVersion: model,
    responseId: "fake-response-01",
  };
}
