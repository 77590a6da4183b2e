/**
 * The setup wizard's templates (spec section 1 "First-time setup wizard", step 2): Simple Q&A,
 * Research, Code & Files, Local model, Planning, Decomposition and a custom team, each turned into
 * a commented YAML config from the wizard's answers. Keys follow MassGen's where MassGen has them
 * (`backend.cwd`, `orchestrator.context_paths`, `orchestrator.coordination_mode`).
 */
import { Document, isScalar } from "yaml";
import type { BackendType, ProviderInfo } from "../config/index.js";

/** The templates, by id. */
export type TemplateId =
  "simple" | "research" | "code" | "local" | "planning" | "decomposition" | "custom";

/** A template as the wizard lists it. */
export interface TemplateInfo {
  id: TemplateId;
  label: string;
  hint: string;
}

/** The templates, in the order the wizard lists them. */
export const TEMPLATES: readonly TemplateInfo[] = [
  { id: "simple", label: "Simple Q&A", hint: "three agents answer, vote and refine" },
  { id: "research", label: "Research", hint: "agents with the providers' web search" },
  {
    id: "code",
    label: "Code & Files",
    hint: "workspaces, and the current directory as a context path",
  },
  { id: "local", label: "Local model, offline", hint: "a GGUF file on the CPU, no key" },
  { id: "planning", label: "Planning", hint: "agents agree on a task plan (coord --plan)" },
  { id: "decomposition", label: "Decomposition", hint: "one subtask per agent, then combined" },
  { id: "custom", label: "Custom team", hint: "choose each agent's provider and model" },
];

/** One agent as the wizard writes it. */
export interface AgentSpec {
  type: BackendType;
  /** The model name; for `local`, the GGUF file's absolute path. */
  model: string;
  baseUrl?: string | undefined;
  webSearch?: boolean | undefined;
  /** `backend.cwd`: the agent's private workspace. */
  workspace?: string | undefined;
  temperature?: number | undefined;
  systemMessage?: string | undefined;
}

/** What the file access templates ask: how the current directory is shared. */
export type DirectoryAccess = "read" | "write";

/** A template's config before rendering. */
interface TemplateConfig {
  /** Comment lines at the top (without `# `). */
  header: string[];
  agents: AgentSpec[];
  orchestrator: Record<string, unknown>;
  timeouts: { orchestrator: number; request: number };
  /** Comments after a key, by dotted path (`orchestrator.context_paths`). */
  comments?: Record<string, string>;
  /** The agents' ids; default {@link agentIds}. */
  ids?: string[];
}

const MADE_BY = "Made by `coord --setup`; edit freely (every key: docs/config.md).";
const RUN = [
  "",
  '  coord "your question"      # one question',
  "  coord                      # the interactive chat",
];

/**
 * Models for a team of `size` agents over `providers` (in turn, each provider's next model of
 * the tier): one provider gives its first models, several give one each before repeating.
 * Without providers, OpenAI's (the run then asks for OPENAI_API_KEY).
 */
export function teamModels(
  providers: readonly ProviderInfo[],
  fallback: ProviderInfo,
  options: { size: number; tier: "fast" | "strong" },
): Array<{ provider: ProviderInfo; model: string }> {
  const pool = providers.length > 0 ? providers : [fallback];
  const used = new Map<string, number>();
  const team: Array<{ provider: ProviderInfo; model: string }> = [];
  for (let index = 0; index < options.size; index++) {
    const provider = pool[index % pool.length]!;
    const models = options.tier === "fast" ? provider.fastModels : provider.strongModels;
    const count = used.get(provider.id) ?? 0;
    used.set(provider.id, count + 1);
    team.push({ provider, model: models[count % models.length]! });
  }
  return team;
}

/** An agent on a hosted provider. */
export function providerAgent(
  provider: ProviderInfo,
  model: string,
  extra: Omit<AgentSpec, "type" | "model"> = {},
): AgentSpec {
  return {
    type: provider.backend,
    model,
    ...(provider.baseUrl !== undefined ? { baseUrl: provider.baseUrl } : {}),
    ...extra,
  };
}

/** The key variables a team needs, for the header (`OPENAI_API_KEY, ANTHROPIC_API_KEY`). */
function keyLine(team: ReadonlyArray<{ provider: ProviderInfo }>): string[] {
  const names = [...new Set(team.map(({ provider }) => provider.keyVariables[0]!))];
  return names.length === 0
    ? []
    : ["", `Needs ${names.join(", ")} in the environment or in ~/.config/coord/.env.`];
}

/** Simple Q&A: three agents on the detected providers' quick models. */
export function simpleTemplate(team: ReadonlyArray<{ provider: ProviderInfo; model: string }>) {
  return render({
    header: [
      "Simple Q&A: the agents answer in parallel, read each other's answers, vote or refine,",
      "and the one whose answer wins writes the final answer.",
      MADE_BY,
      ...RUN,
      ...keyLine(team),
    ],
    agents: team.map(({ provider, model }) => providerAgent(provider, model)),
    orchestrator: { voting_sensitivity: "lenient", max_new_answers_per_agent: 3 },
    timeouts: { orchestrator: 600, request: 120 },
  });
}

/** Research: agents with the providers' own web search. */
export function researchTemplate(team: ReadonlyArray<{ provider: ProviderInfo; model: string }>) {
  return render({
    header: [
      "Research: each agent searches the web with its provider's own search tool, then the team",
      "compares sources, votes or refines, and the winner writes a cited answer.",
      MADE_BY,
      ...RUN,
      ...keyLine(team),
    ],
    agents: team.map(({ provider, model }) =>
      providerAgent(provider, model, {
        webSearch: true,
        systemMessage:
          "Research the question with web search before answering.\n" +
          "Cite your sources with links, prefer primary sources, and say what is uncertain.",
      }),
    ),
    orchestrator: { voting_sensitivity: "balanced", max_new_answers_per_agent: 3 },
    timeouts: { orchestrator: 900, request: 300 },
    comments: { "agents.0.backend.enable_web_search": " the provider's own web search tool" },
  });
}

/** The context path of the file templates, with its comment. */
function directoryContext(access: DirectoryAccess): Record<string, unknown> {
  return { context_paths: [{ path: ".", permission: access }] };
}

const DIRECTORY_COMMENT: Record<DirectoryAccess, string> = {
  read: " the directory you run coord in; every agent may read it",
  write: " the directory you run coord in; the agent presenting the final answer may write it",
};

/** Code & Files: agents with private workspaces and the current directory as a context path. */
export function codeTemplate(
  team: ReadonlyArray<{ provider: ProviderInfo; model: string }>,
  access: DirectoryAccess,
) {
  return render({
    header: [
      "Code & Files: each agent drafts in its own workspace (`cwd:`) and sees the others'",
      "workspaces read-only; the directory you run coord in is a context path (`read`: agents",
      "read it; `write`: the agent presenting the final answer also writes there).",
      MADE_BY,
      "",
      '  coord "Add input validation to src/form.ts and a test for it"',
      ...keyLine(team),
    ],
    agents: team.map(({ provider, model }, index) =>
      providerAgent(provider, model, {
        workspace: `workspace${index + 1}`,
        systemMessage:
          "You work on the files in the context path. Read before you change anything,\n" +
          "keep changes small, and say which files you changed and why.",
      }),
    ),
    orchestrator: directoryContext(access),
    timeouts: { orchestrator: 1800, request: 300 },
    comments: {
      "agents.0.backend.cwd": " this agent's private workspace",
      "orchestrator.context_paths.0.path": DIRECTORY_COMMENT[access],
    },
  });
}

/** Local model, offline: agents on one GGUF file. */
export function localTemplate(modelPath: string, count: number) {
  const temperatures = [0.7, 1.0, 0.4];
  return render({
    header: [
      "Local model, offline: the agents run a GGUF model on the CPU through node-llama-cpp; no",
      "API key, no network. Small instruction-tuned models (1–3 B parameters, Q4) answer in",
      "seconds on a laptop; keep the agents' `threads` sum at most the number of CPU cores.",
      MADE_BY,
      ...RUN,
    ],
    agents: Array.from({ length: count }, (_, index) => ({
      type: "local" as const,
      model: modelPath,
      temperature: temperatures[index % temperatures.length],
    })),
    orchestrator: { max_new_answers_per_agent: 2 },
    timeouts: { orchestrator: 900, request: 300 },
    comments: { "agents.0.backend.threads": " CPU threads for this agent" },
  });
}

/** Planning: agents that agree on a task plan (`coord --plan`), then execute it on files. */
export function planningTemplate(
  team: ReadonlyArray<{ provider: ProviderInfo; model: string }>,
  access: DirectoryAccess,
) {
  return render({
    header: [
      "Planning: with --plan the agents agree on a structured task plan (stored in",
      ".coord/plans/) and nothing is executed; --plan-and-execute then carries it out on files,",
      "in the agents' workspaces and the directory you run coord in.",
      MADE_BY,
      "",
      '  coord --plan "Add a /health endpoint to the server"    # a plan, nothing executed',
      '  coord --plan-and-execute "Add a /health endpoint"      # plan, then execute',
      "  coord --execute-plan latest                            # execute the latest plan",
      ...keyLine(team),
    ],
    agents: team.map(({ provider, model }, index) =>
      providerAgent(provider, model, { workspace: `workspace${index + 1}` }),
    ),
    orchestrator: directoryContext(access),
    timeouts: { orchestrator: 1800, request: 300 },
    comments: { "orchestrator.context_paths.0.path": DIRECTORY_COMMENT[access] },
  });
}

/** Decomposition: one subtask per agent, integrated by the presenter. */
export function decompositionTemplate(
  team: ReadonlyArray<{ provider: ProviderInfo; model: string }>,
) {
  const agents = team.map(({ provider, model }) => providerAgent(provider, model));
  return render({
    header: [
      "Decomposition: the task is split into one subtask per agent (generated for each question,",
      "or fixed with `subtask:` on an agent); each agent works on its part, reads the others'",
      "work at the boundaries, and the presenter combines the parts into the final answer.",
      MADE_BY,
      ...RUN,
      ...keyLine(team),
    ],
    agents,
    orchestrator: {
      coordination_mode: "decomposition",
      presenter_agent: agentIds(agents)[0],
    },
    timeouts: { orchestrator: 1200, request: 300 },
    comments: { "orchestrator.presenter_agent": " writes the combined final answer" },
  });
}

/** A custom team: the agents as chosen one by one. */
export function customTemplate(
  agents: readonly AgentSpec[],
  keys: readonly string[],
  prefixes?: readonly string[],
) {
  return render({
    header: [
      `A custom team of ${agents.length} agent${agents.length === 1 ? "" : "s"}: they answer in parallel, read each other's answers,`,
      "vote or refine, and the one whose answer wins writes the final answer.",
      MADE_BY,
      ...RUN,
      ...(keys.length > 0
        ? ["", `Needs ${keys.join(", ")} in the environment or in ~/.config/coord/.env.`]
        : []),
    ],
    agents: [...agents],
    ids: customAgentIds(agents, prefixes),
    orchestrator: { voting_sensitivity: "lenient", max_new_answers_per_agent: 3 },
    timeouts: { orchestrator: 600, request: 120 },
  });
}

/**
 * Agent ids from the models (`gpt-4o-mini` → `gpt_4o_mini`, a GGUF path → its file name), made
 * unique with `_2`, `_3`, … in order.
 */
export function agentIds(agents: readonly AgentSpec[]): string[] {
  const seen = new Map<string, number>();
  return agents.map((agent) => {
    const last = agent.model.split(/[\\/]/).pop() ?? "";
    const base =
      last
        .replace(/\.gguf$/i, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "")
        .slice(0, 32) || "agent";
    const id = /^[a-z]/.test(base) ? base : `agent_${base}`;
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : `${id}_${count}`;
  });
}

/**
 * A custom team's agent ids: the provider and a number per provider (`openai_1`, `claude_1`,
 * `openai_2`), not the model (two agents on one model were `x` and `x_2`). `prefixes[i]` names
 * agent i's provider as the wizard asked it (`openrouter`, `compatible`, `local`); without it, the
 * backend type (`chatcompletion` reads `compatible`).
 */
export function customAgentIds(
  agents: readonly AgentSpec[],
  prefixes?: readonly string[],
): string[] {
  const seen = new Map<string, number>();
  return agents.map((agent, index) => {
    const prefix =
      prefixes?.[index] ?? (agent.type === "chatcompletion" ? "compatible" : agent.type);
    const count = (seen.get(prefix) ?? 0) + 1;
    seen.set(prefix, count);
    return `${prefix}_${count}`;
  });
}

function render(template: TemplateConfig): string {
  const ids = template.ids ?? agentIds(template.agents);
  const agents = template.agents.map((agent, index) => ({
    id: ids[index],
    backend: {
      type: agent.type,
      model: agent.model,
      ...(agent.baseUrl !== undefined ? { base_url: agent.baseUrl } : {}),
      ...(agent.type === "local" ? { threads: 1, context_size: 2048, max_tokens: 512 } : {}),
      ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
      ...(agent.webSearch === true ? { enable_web_search: true } : {}),
      ...(agent.workspace !== undefined ? { cwd: agent.workspace } : {}),
    },
    ...(agent.systemMessage !== undefined ? { system_message: agent.systemMessage } : {}),
  }));
  const doc = new Document({
    agents,
    orchestrator: template.orchestrator,
    timeout_settings: {
      orchestrator_timeout_seconds: template.timeouts.orchestrator,
      request_timeout_seconds: template.timeouts.request,
    },
    ui: { display_type: "rich_terminal", logging_enabled: true },
  });
  for (const [path, comment] of Object.entries(template.comments ?? {})) {
    const node = doc.getIn(
      path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      true,
    );
    if (isScalar(node)) node.comment = comment;
  }
  const header = template.header.map((line) => (line === "" ? "#" : `# ${line}`)).join("\n");
  // A blank line before each top-level key (they alone start in column 0).
  const body = doc.toString({ lineWidth: 0 }).replace(/\n(?=[a-z_]+:)/g, "\n\n");
  return `${header}\n\n${body}`;
}
