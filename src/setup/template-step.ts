/**
 * The wizard's template questions (spec section 1 "First-time setup wizard", step 2): a template,
 * then what it needs (how the current directory is shared, a GGUF path, each agent of a custom
 * team), with defaults from the providers whose keys were found. Returns the config's YAML.
 */
import { stat } from "node:fs/promises";
import { type ProviderInfo, PROVIDERS, providerById } from "../config/index.js";
import { BACK, type Back, type Choice, type Prompter } from "./prompter.js";
import { resolveTypedPath } from "./paths.js";
import {
  type AgentSpec,
  codeTemplate,
  customTemplate,
  decompositionTemplate,
  type DirectoryAccess,
  localTemplate,
  planningTemplate,
  providerAgent,
  researchTemplate,
  simpleTemplate,
  type TemplateId,
  TEMPLATES,
  teamModels,
} from "./templates.js";

/** What the template questions need to know. */
export interface TemplateContext {
  prompter: Prompter;
  cwd: string;
  home: string;
  /** Providers whose keys were found, in table order. */
  providers: readonly ProviderInfo[];
}

/** A template's YAML and its name. */
export interface TemplateResult {
  template: TemplateId;
  yaml: string;
}

const OPENAI = providerById("openai");

/**
 * Asks for a template and its settings.
 * @param initial the template to focus first (the one chosen before going back).
 * @returns the YAML, or BACK when Esc was pressed on the template list.
 */
export async function askTemplate(
  context: TemplateContext,
  initial?: TemplateId,
): Promise<TemplateResult | Back> {
  let focused = initial;
  for (;;) {
    const template = await context.prompter.select<TemplateId>({
      message: "Which template? (Esc goes back)",
      choices: TEMPLATES.map((info) => ({ value: info.id, label: info.label, hint: info.hint })),
      ...(focused !== undefined ? { initial: focused } : {}),
    });
    if (template === BACK) return BACK;
    focused = template;
    const yaml = await buildTemplate(context, template);
    if (yaml !== BACK) return { template, yaml };
  }
}

async function buildTemplate(context: TemplateContext, id: TemplateId): Promise<string | Back> {
  const { providers, prompter } = context;
  const team = (size: number, tier: "fast" | "strong", pool = providers) =>
    teamModels(pool, OPENAI, { size, tier });
  if (providers.length === 0 && id !== "local" && id !== "custom") {
    prompter.warn("No provider key was found: the config uses OpenAI (set OPENAI_API_KEY).");
  }
  switch (id) {
    case "simple":
      return simpleTemplate(team(3, "fast"));
    case "research": {
      const searchers = providers.filter((provider) => provider.webSearch);
      if (providers.length > 0 && searchers.length === 0) prompter.warn(webSearchWarning());
      return researchTemplate(team(3, "fast", searchers));
    }
    case "code": {
      const access = await askDirectoryAccess(prompter);
      return access === BACK ? BACK : codeTemplate(team(2, "strong"), access);
    }
    case "local":
      return askLocal(context);
    case "planning": {
      const access = await askDirectoryAccess(prompter);
      return access === BACK ? BACK : planningTemplate(team(2, "strong"), access);
    }
    case "decomposition":
      return decompositionTemplate(team(3, "fast"));
    case "custom":
      return askCustom(context);
  }
}

/**
 * The warning when no provider found can search the web: the providers that can (their
 * descriptors' `webSearch` capability), and the OpenAI fallback the config uses.
 */
export function webSearchWarning(): string {
  const labels = PROVIDERS.filter((provider) => provider.webSearch).map(
    (provider) => provider.label,
  );
  const named =
    labels.length > 1 ? `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)!}` : labels[0];
  return `Web search needs ${named ?? "a provider with web search"}: the config uses ${OPENAI.label} (set ${OPENAI.keyVariables[0]!}).`;
}

async function askDirectoryAccess(prompter: Prompter): Promise<DirectoryAccess | Back> {
  return prompter.select<DirectoryAccess>({
    message: "What may the team do in the directory you run coord in?",
    choices: [
      { value: "read", label: "Read it", hint: "agents read the files; nothing there changes" },
      {
        value: "write",
        label: "Read and write it",
        hint: "the agent presenting the final answer may change files",
      },
    ],
  });
}

/** A GGUF path that exists (typed relative to the working directory, or with `~/`). */
async function askModelFile(context: TemplateContext, fallback?: string): Promise<string | Back> {
  let initial: string | undefined;
  for (;;) {
    const typed = await context.prompter.text({
      message: "Path of the GGUF model file",
      placeholder: "~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf",
      // A retry starts from what was typed (to correct it); the previous agent's file is a default.
      ...(initial !== undefined
        ? { initial }
        : fallback !== undefined
          ? { default: fallback }
          : {}),
      validate: (value) =>
        value.trim() === ""
          ? "Type the path of a .gguf file"
          : /\.gguf$/i.test(value.trim())
            ? undefined
            : "A local model is a .gguf file",
    });
    if (typed === BACK) return BACK;
    const path = resolveTypedPath(typed, context);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() === true) return path;
    context.prompter.warn(`${path}: no such file.`);
    initial = typed;
  }
}

async function askLocal(context: TemplateContext): Promise<string | Back> {
  let path: string | undefined;
  for (;;) {
    const chosen = await askModelFile(context, path);
    if (chosen === BACK) return BACK;
    path = chosen;
    const count = await context.prompter.select<number>({
      message: "How many agents? (each runs the model on one CPU thread)",
      choices: [1, 2, 3].map((value) => ({ value, label: String(value) })),
      initial: 2,
    });
    if (count !== BACK) return localTemplate(path, count);
  }
}

type AgentKind = ProviderInfo["id"] | "local" | "compatible";

async function askCustom(context: TemplateContext): Promise<string | Back> {
  const { prompter, providers } = context;
  for (;;) {
    const size = await prompter.select<number>({
      message: "How many agents?",
      choices: [1, 2, 3, 4, 5, 6].map((value) => ({ value, label: String(value) })),
      initial: 3,
    });
    if (size === BACK) return BACK;
    const agents: AgentSpec[] = [];
    const kinds: AgentKind[] = [];
    while (agents.length < size) {
      const index = agents.length;
      const previous = kinds[index - 1];
      const kind = await prompter.select<AgentKind>({
        message: `Agent ${index + 1} of ${size}: which provider?`,
        choices: kindChoices(providers),
        initial: providers[index % Math.max(providers.length, 1)]?.id ?? previous ?? "openai",
      });
      if (kind === BACK) {
        if (index === 0) break;
        agents.pop();
        kinds.pop();
        continue;
      }
      const agent = await askAgent(context, kind, agents.at(-1));
      if (agent === BACK) continue;
      agents.push(agent);
      kinds.push(kind);
    }
    if (agents.length < size) continue;
    const keys = [
      ...new Set(
        kinds.flatMap((kind) =>
          kind === "local" || kind === "compatible" ? [] : [providerById(kind).keyVariables[0]!],
        ),
      ),
    ];
    return customTemplate(agents, keys, kinds);
  }
}

function kindChoices(found: readonly ProviderInfo[]): Choice<AgentKind>[] {
  return [
    ...PROVIDERS.map((provider) => ({
      value: provider.id,
      label: provider.label,
      hint: found.includes(provider)
        ? "key found"
        : `needs ${provider.keyVariables[0]!}${provider.endpointVariable ? ` and ${provider.endpointVariable.name}` : ""}`,
    })),
    { value: "local" as const, label: "Local model", hint: "a GGUF file on the CPU, no key" },
    {
      value: "compatible" as const,
      label: "OpenAI-compatible server",
      hint: "vLLM, Ollama, LM Studio, llama.cpp, … at a base URL",
    },
  ];
}

/**
 * A base URL the wizard accepts: one http(s) URL with a host, nothing after it (a pasted URL twice,
 * `http://a/v1http://a/v1`, parses as one URL whose path holds the second: refused).
 * @returns the message shown under the field, or undefined when the URL is fine.
 */
export function checkBaseUrl(value: string): string | undefined {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Type a URL like http://localhost:8000/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Use an http(s) URL";
  if (url.hostname === "") return "The URL needs a host, like http://localhost:8000/v1";
  if (/https?:\/\//i.test(text.slice(url.protocol.length + 2)))
    return "One URL only, like http://localhost:8000/v1";
  if (/\s/.test(text)) return "A URL has no spaces";
  return undefined;
}

/**
 * One agent's model (and base URL or file); the previous agent's answers are the defaults (an
 * empty answer takes them), shown as hints, not as text to edit.
 */
async function askAgent(
  context: TemplateContext,
  kind: AgentKind,
  previous: AgentSpec | undefined,
): Promise<AgentSpec | Back> {
  const { prompter } = context;
  if (kind === "local") {
    const path = await askModelFile(
      context,
      previous?.type === "local" ? previous.model : undefined,
    );
    return path === BACK ? BACK : { type: "local", model: path };
  }
  if (kind === "compatible") {
    for (;;) {
      const baseUrl = await prompter.text({
        message: "Base URL of the server (with /v1)",
        placeholder: "http://localhost:8000/v1",
        ...(previous?.type === "chatcompletion" && previous.baseUrl !== undefined
          ? { default: previous.baseUrl }
          : {}),
        validate: checkBaseUrl,
      });
      if (baseUrl === BACK) return BACK;
      const model = await prompter.text({
        message: "Model name, as the server spells it",
        ...(previous?.type === "chatcompletion" ? { default: previous.model } : {}),
        validate: (value) => (value.trim() === "" ? "Type the model's name" : undefined),
      });
      if (model === BACK) continue;
      return { type: "chatcompletion", baseUrl: baseUrl.trim(), model: model.trim() };
    }
  }
  const provider = providerById(kind);
  const models = [...new Set([...provider.fastModels, ...provider.strongModels])];
  for (;;) {
    const model = await prompter.select<string>({
      message: `${provider.label} model${provider.id === "azure_openai" ? " (your deployment's name)" : ""}`,
      choices: [
        ...models.map((name) => ({ value: name, label: name })),
        { value: "", label: "Another model…", hint: "type its name" },
      ],
    });
    if (model === BACK) return BACK;
    if (model !== "") return providerAgent(provider, model);
    const typed = await prompter.text({
      message: `${provider.label} model name`,
      validate: (value) => (value.trim() === "" ? "Type the model's name" : undefined),
    });
    if (typed !== BACK) return providerAgent(provider, typed.trim());
  }
}
