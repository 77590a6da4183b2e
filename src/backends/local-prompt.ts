/**
 * The `local` backend's prompt: a request rendered as node-llama-cpp chat history, and that
 * history cut down to fit the context window.
 */
import type { ChatHistoryItem } from "node-llama-cpp";
import type { ChatMessage } from "./backend.js";
import { toolCallText } from "./local-grammar.js";

/**
 * Renders a request as node-llama-cpp chat history: tool results become user turns, assistant
 * tool calls their JSON, consecutive turns of one role are merged, and an empty model turn at the
 * end is the one to generate.
 */
export function toChatHistory(system: string, messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = system === "" ? [] : [{ type: "system", text: system }];
  const push = (type: "user" | "model", text: string) => {
    if (text === "") return;
    const last = items.at(-1);
    if (last?.type === "user" && type === "user") last.text += `\n\n${text}`;
    else if (last?.type === "model" && type === "model") last.response.push(`\n${text}`);
    else items.push(type === "user" ? { type, text } : { type, response: [text] });
  };
  for (const message of messages) {
    if (message.role === "user") push("user", message.content);
    else if (message.role === "tool") {
      push(
        "user",
        `Result of ${message.toolName}${message.isError ? " (error)" : ""}: ${message.content}`,
      );
    } else {
      const calls = (message.toolCalls ?? []).map((call) =>
        toolCallText(call.toolName, call.input),
      );
      push("model", [message.content, ...calls].filter((text) => text !== "").join("\n"));
    }
  }
  items.push({ type: "model", response: [] });
  return items;
}

/**
 * Drops the oldest turns (then cuts the oldest text) until the prompt is at most `budget` tokens.
 * The system prompt and the newest turn are kept; returns the history and its token count.
 */
export function fitHistory(
  history: ChatHistoryItem[],
  budget: number,
  countTokens: (items: ChatHistoryItem[]) => number,
): { history: ChatHistoryItem[]; tokens: number } {
  const items = structuredClone(history);
  const first = items[0]?.type === "system" ? 1 : 0;
  let tokens = countTokens(items);
  while (tokens > budget && items.length - first > 2) {
    items.splice(first, 1);
    while (items[first]?.type === "model" && items.length - first > 2) items.splice(first, 1);
    tokens = countTokens(items);
  }
  for (let attempt = 0; tokens > budget && attempt < 8; attempt++) {
    const target = items.slice(0, -1).find((item) => item.type === "user") ?? items[0];
    if (target === undefined || (target.type !== "user" && target.type !== "system")) break;
    const text = typeof target.text === "string" ? target.text : "";
    const keep = Math.floor(text.length * Math.max(0, 1 - (tokens - budget) / tokens) * 0.9);
    // A user turn loses its oldest text; a too-long system prompt loses its end.
    target.text =
      target.type === "user" ? `…${text.slice(text.length - keep)}` : `${text.slice(0, keep)}…`;
    tokens = countTokens(items);
  }
  return { history: items, tokens };
}
