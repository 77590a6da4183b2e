/**
 * Reads a `POST /v1/chat/completions` body into what a team run needs (spec section 4.3): the
 * question (the last user message), the conversation history (the user and assistant messages
 * before it), and the system messages (added to every agent's system message). Every problem is
 * an {@link ApiError} 400 naming the field at fault (`messages[2].content`).
 */
import type { HistoryTurn } from "../engine/index.js";
import { ApiError, invalidRequest } from "./api-error.js";
import { readRequestOptions, type RequestOptions } from "./request-options.js";

/** A validated chat-completions request. */
export interface ChatRequest {
  /** `model` as sent; undefined when absent. */
  model: string | undefined;
  /** The last user message's text. */
  question: string;
  /** User and assistant messages before the question, oldest first. */
  history: HistoryTurn[];
  /** The system (and `developer`) messages joined by blank lines; undefined when none. */
  systemMessage: string | undefined;
  /** `stream: true` (only where the server streams; else a 501). */
  stream: boolean;
  /** `stream_options.include_usage`: a streamed answer ends with a usage chunk. */
  includeUsage: boolean;
  /** `response_format` and the generation parameters (`./request-options.ts`). */
  options: RequestOptions;
}

/** Roles a message may have; `developer` is OpenAI's newer name for `system`. */
const ROLES = ["system", "developer", "user", "assistant"] as const;
type Role = (typeof ROLES)[number];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Parses the raw body text.
 * @throws ApiError 400 `invalid_json` when the text is not a JSON object.
 */
export function parseJsonBody(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the body around the fault: keep the message to one short line.
    const reason = error instanceof Error ? `: ${oneLineSnippet(error.message, 200)}` : "";
    throw invalidRequest(
      `the request body is not valid JSON${reason}; send a JSON object with Content-Type: application/json`,
      null,
      "invalid_json",
    );
  }
  if (!isRecord(parsed)) {
    throw invalidRequest(
      "the request body must be a JSON object with a messages array",
      null,
      "invalid_json",
    );
  }
  return parsed;
}

/**
 * Checks a parsed body and extracts the question, history, system message and the optional
 * fields coord serves ({@link readRequestOptions}; the ones it cannot serve are refused there).
 * @param server.stream the server streams (`coord serve --stream`)
 * @throws ApiError 501 `streaming_not_supported` for `stream: true` unless `server.stream` (spec
 *   section 7); 400 for a
 *   `model` or `stream` of the wrong type, missing or empty `messages`, a message without `role`
 *   or `content`, an unknown role, content that is neither a string nor an array of text parts,
 *   no user message, an empty question, or anything but system messages after the question;
 *   400 from {@link readRequestOptions} (`tools`, `n > 1`, … refused; a bad `response_format`).
 */
export function readChatRequest(
  body: Record<string, unknown>,
  server: { stream?: boolean } = {},
): ChatRequest {
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") {
    throw invalidRequest("stream must be a boolean", "stream", "invalid_type");
  }
  if (body.stream === true && server.stream !== true) {
    throw new ApiError(
      501,
      "streaming is not supported by coord serve: send stream: false (or omit it) and read the whole answer at once; the operator can turn streaming on with coord serve --stream",
      { type: "invalid_request_error", param: "stream", code: "streaming_not_supported" },
    );
  }
  const options = readRequestOptions(body);
  if (body.model !== undefined && body.model !== null && typeof body.model !== "string") {
    throw invalidRequest("model must be a string", "model", "invalid_type");
  }
  const { messages } = body;
  if (messages === undefined || messages === null) {
    throw invalidRequest(
      'messages is required: an array like [{"role": "user", "content": "your question"}]',
      "messages",
      "missing_required_parameter",
    );
  }
  if (!Array.isArray(messages)) {
    throw invalidRequest(
      "messages must be an array of message objects",
      "messages",
      "invalid_type",
    );
  }
  if (messages.length === 0) {
    throw invalidRequest(
      "messages must not be empty: add a user message with the question",
      "messages",
      "empty_array",
    );
  }
  const read = messages.map((message, index) => readMessage(message, index));
  const lastUser = read.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) {
    throw invalidRequest(
      "messages has no user message: the last user message is the question",
      "messages",
      "no_user_message",
    );
  }
  const question = read[lastUser]!.text;
  if (question.trim() === "") {
    throw invalidRequest(
      `messages[${lastUser}].content is empty: the last user message is the question`,
      `messages[${lastUser}].content`,
      "empty_question",
    );
  }
  const trailing = read.findIndex((message, index) => index > lastUser && !isSystem(message.role));
  if (trailing >= 0) {
    throw invalidRequest(
      `messages[${trailing}]: only system messages may follow the last user message (the question)`,
      `messages[${trailing}].role`,
      "invalid_message_order",
    );
  }
  const history: HistoryTurn[] = [];
  for (const message of read.slice(0, lastUser)) {
    if (message.role === "user" || message.role === "assistant")
      history.push({ role: message.role, content: message.text });
  }
  const system = read
    .filter((message) => isSystem(message.role) && message.text.trim() !== "")
    .map((message) => message.text)
    .join("\n\n");
  return {
    model: typeof body.model === "string" ? body.model : undefined,
    question,
    history,
    systemMessage: system === "" ? undefined : system,
    stream: body.stream === true,
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
    options,
  };
}

/** `text` with line breaks and control characters as spaces, at most `max` characters. */
function oneLineSnippet(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ");
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function isSystem(role: Role): boolean {
  return role === "system" || role === "developer";
}

function readMessage(message: unknown, index: number): { role: Role; text: string } {
  const where = `messages[${index}]`;
  if (!isRecord(message)) {
    throw invalidRequest(`${where} must be an object with role and content`, where, "invalid_type");
  }
  if (message.role === undefined || message.role === null) {
    throw invalidRequest(
      `${where}.role is required`,
      `${where}.role`,
      "missing_required_parameter",
    );
  }
  if (typeof message.role !== "string" || !(ROLES as readonly string[]).includes(message.role)) {
    throw invalidRequest(
      `${where}.role ${JSON.stringify(message.role)} is not supported: expected one of ${ROLES.join(", ")}`,
      `${where}.role`,
      "invalid_value",
    );
  }
  const role = message.role as Role;
  return { role, text: readContent(message.content, `${where}.content`) };
}

/** A string, or an array of `{type: "text", text}` parts (joined by newlines). */
function readContent(content: unknown, where: string): string {
  if (content === undefined || content === null) {
    throw invalidRequest(`${where} is required`, where, "missing_required_parameter");
  }
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    throw invalidRequest(
      `${where} must be a string or an array of text parts`,
      where,
      "invalid_type",
    );
  }
  return content
    .map((part, index) => {
      const at = `${where}[${index}]`;
      if (!isRecord(part) || part.type !== "text" || typeof part.text !== "string") {
        const type = isRecord(part) && typeof part.type === "string" ? ` (${part.type})` : "";
        throw invalidRequest(
          `${at}${type}: only text parts {"type": "text", "text": "…"} are supported`,
          at,
          "invalid_content_part",
        );
      }
      return part.text;
    })
    .join("\n");
}
