/**
 * Why coord does not read a key that MassGen configs write (nothing is dropped silently): every key
 * of a config is either used or warned about once, with the reason — not supported in coord, not
 * needed in coord, or use another key instead. Keys in neither the schema nor this table are
 * `unknown key` warnings (with a "did you mean" when a known key is close, or declared one level
 * down or up); a MassGen key written one level off gets the reason of where MassGen reads it.
 *
 * Sources: MassGen's `massgen/backend/_excluded_params.py`, its YAML reference
 * (`docs/source/reference/yaml_schema.rst`) and its example configs.
 */
import type { KeyPath } from "./key-path.js";

/** Why a key is not read. */
export type UnusedKeyKind = "unknown" | "unsupported" | "not-needed" | "use-instead";

/** The reason for one key. `text` completes the kind: see {@link describeUnusedKey}. */
export interface UnusedKeyReason {
  kind: Exclude<UnusedKeyKind, "unknown">;
  text: string;
}

const unsupported = (text: string): UnusedKeyReason => ({ kind: "unsupported", text });
const notNeeded = (text: string): UnusedKeyReason => ({ kind: "not-needed", text });
const useInstead = (text: string): UnusedKeyReason => ({ kind: "use-instead", text });

const DOCKER = unsupported(
  "MassGen's Docker execution (commands run locally, in the agent's workspace)",
);
const MEDIA = unsupported("MassGen's media generation and multimodal tools");
const PYTHON_TOOLS = unsupported("MassGen's Python custom tools (offer tools through mcp_servers)");
const SET_BY_MASSGEN = notNeeded("MassGen sets it for itself at run time");
const PLANNING = unsupported("MassGen's planning mode and task planning");
const SUBAGENTS = unsupported("MassGen's subagents");
const CHECKLIST = unsupported("MassGen's checklist and round-evaluator coordination");
const CHECKPOINTS = unsupported("MassGen's checkpoints");
const LEARNING = unsupported("MassGen's learning capture");
const MIDSTREAM = unsupported(
  "MassGen's mid-stream peer updates (coord shows each agent the others' answers between its turns)",
);
const WRITE_MODES = unsupported("MassGen's isolated write modes");
const FAIRNESS = unsupported("MassGen's fairness controls");

/**
 * MassGen's coordination settings, which its configs write under `orchestrator`,
 * `orchestrator.coordination` or (copied there by MassGen) an agent's backend.
 */
const COORDINATION_FEATURE_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  round_evaluator_before_checklist: CHECKLIST,
  orchestrator_managed_round_evaluator: CHECKLIST,
  round_evaluator_skip_synthesis: CHECKLIST,
  round_evaluator_refine: CHECKLIST,
  round_evaluator_transformation_pressure: CHECKLIST,
  enable_quality_rethink_on_iteration: CHECKLIST,
  enable_novelty_on_iteration: CHECKLIST,
  checklist_require_gap_report: CHECKLIST,
  gap_report_mode: CHECKLIST,
  max_checklist_calls_per_round: CHECKLIST,
  checklist_first_answer: CHECKLIST,
  improvements: CHECKLIST,
  criteria_mode: CHECKLIST,
  bootstrap_max_per_agent_per_round: CHECKLIST,
  bootstrap_max_total: CHECKLIST,
  enable_execution_trace_analyzer: unsupported("MassGen's execution trace analyzer"),
  learning_capture_mode: LEARNING,
  disable_final_only_round_capture_fallback: LEARNING,
  max_midstream_injections_per_round: MIDSTREAM,
  defer_peer_updates_until_restart: MIDSTREAM,
  allow_midstream_peer_updates_before_checklist_submit: MIDSTREAM,
  drift_conflict_policy: WRITE_MODES,
  novelty_injection: useInstead("orchestrator.answer_novelty_requirement"),
  final_answer_strategy: unsupported("MassGen's final-answer strategies"),
  voting_threshold: unsupported("MassGen's voting threshold (the most-voted answer wins)"),
  fairness_enabled: FAIRNESS,
  fairness_lead_cap_answers: FAIRNESS,
  main_agent: CHECKPOINTS,
  checkpoint_enabled: CHECKPOINTS,
  checkpoint_mode: CHECKPOINTS,
  checkpoint_guidance: CHECKPOINTS,
  checkpoint_gated_patterns: CHECKPOINTS,
  standalone_checkpoint_enabled: CHECKPOINTS,
  standalone_checkpoint_team_config: CHECKPOINTS,
  standalone_checkpoint_mode: CHECKPOINTS,
  standalone_checkpoint_single: CHECKPOINTS,
  standalone_checkpoint_include_workspace_context: CHECKPOINTS,
};
const ROUND_TIMEOUTS = unsupported(
  "MassGen's per-round timeouts (coord bounds each request: request_timeout_seconds, and the run: orchestrator_timeout_seconds)",
);

/** Backend keys (`agents[].backend.KEY`) from MassGen that coord does not read. */
const BACKEND_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  ...COORDINATION_FEATURE_KEYS,
  upload_files: unsupported(
    "MassGen's upload of files to the provider (give agents files through orchestrator.context_paths)",
  ),
  betas: notNeeded("its `claude` backend sends the Anthropic beta headers its features need"),
  websocket_mode: notNeeded("it streams each response over HTTP"),
  custom_tools: PYTHON_TOOLS,
  custom_tools_path: PYTHON_TOOLS,
  auto_discover_custom_tools: PYTHON_TOOLS,
  exclude_custom_tools: PYTHON_TOOLS,
  enable_code_based_tools: PYTHON_TOOLS,
  direct_mcp_servers: PYTHON_TOOLS,
  shared_tools_directory: PYTHON_TOOLS,
  command_line_docker_image: DOCKER,
  command_line_docker_memory_limit: DOCKER,
  command_line_docker_cpu_limit: DOCKER,
  command_line_docker_network_mode: DOCKER,
  command_line_docker_enable_sudo: DOCKER,
  command_line_docker_credentials: DOCKER,
  command_line_docker_packages: DOCKER,
  enable_image_generation: MEDIA,
  enable_audio_generation: MEDIA,
  enable_video_generation: MEDIA,
  enable_file_generation: MEDIA,
  enable_multimodal_tools: MEDIA,
  multimodal_config: MEDIA,
  image_generation_backend: MEDIA,
  image_generation_model: MEDIA,
  video_generation_backend: MEDIA,
  video_generation_model: MEDIA,
  audio_generation_backend: MEDIA,
  audio_generation_model: MEDIA,
  enable_file_search: unsupported("OpenAI's hosted file search"),
  vector_store_ids: unsupported("OpenAI's hosted file search"),
  hooks: unsupported("MassGen's hook framework"),
  enable_nlip: unsupported("MassGen's NLIP routing"),
  nlip: unsupported("MassGen's NLIP routing"),
  nlip_config: unsupported("MassGen's NLIP routing"),
  enforce_read_before_delete: unsupported(
    "MassGen's read-before-delete rule (coord's file tools write only in the workspace and write context paths)",
  ),
  use_two_tier_workspace: unsupported("MassGen's two-tier (scratch/deliverable) workspace"),
  write_mode: WRITE_MODES,
  enable_rate_limit: notNeeded("it retries rate limits (429) itself, with backoff"),
  concurrent_tool_execution: notNeeded("an agent's tool calls run one after another"),
  max_concurrent_tools: notNeeded("an agent's tool calls run one after another"),
  exclude_file_operation_mcps: notNeeded("its file tools are built in, not MCP servers"),
  use_mcpwrapped_for_tool_filtering: notNeeded("allowed_tools and exclude_tools filter MCP tools"),
  use_no_roots_wrapper: notNeeded("it starts MCP servers as configured"),
  context_write_access_enabled: notNeeded(
    "write access comes from orchestrator.context_paths[].permission",
  ),
  debug_delay_seconds: notNeeded("a MassGen debugging aid"),
  debug_delay_after_n_tools: notNeeded("a MassGen debugging aid"),
  agent_id: SET_BY_MASSGEN,
  instance_id: SET_BY_MASSGEN,
  session_id: SET_BY_MASSGEN,
  filesystem_session_id: SET_BY_MASSGEN,
  session_storage_base: SET_BY_MASSGEN,
  agent_temporary_workspace_parent: SET_BY_MASSGEN,
  vote_only: useInstead("--quick"),
  context_paths: useInstead("orchestrator.context_paths"),
  agent_temporary_workspace: useInstead("orchestrator.agent_temporary_workspace"),
  voting_sensitivity: useInstead("orchestrator.voting_sensitivity"),
  coordination_mode: useInstead("orchestrator.coordination_mode"),
  presenter_agent: useInstead("orchestrator.presenter_agent"),
  subtask: useInstead("agents[].subtask"),
  max_completion_tokens: useInstead("max_tokens"),
  max_output_tokens: useInstead("max_tokens"),
  api_base: useInstead("base_url"),
  thinking_budget_tokens_max: useInstead("thinking_budget_tokens"),
  plan_depth: PLANNING,
  plan_thoroughness: PLANNING,
  plan_target_steps: PLANNING,
  plan_target_chunks: PLANNING,
  subagent_types: SUBAGENTS,
};

/** Orchestrator keys (`orchestrator.KEY`). */
const ORCHESTRATOR_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  ...COORDINATION_FEATURE_KEYS,
  dspy: unsupported(
    "MassGen's DSPy question paraphrasing (to vary the agents, use orchestrator.coordination.persona_generator)",
  ),
  timeout: useInstead("timeout_settings.orchestrator_timeout_seconds"),
  orchestrator_timeout_seconds: useInstead("timeout_settings.orchestrator_timeout_seconds"),
  session_storage: notNeeded("sessions are kept under ~/.coord/sessions/"),
  skip_coordination_rounds: useInstead("--quick (one answer per agent, no voting loop)"),
  debug_final_answer: notNeeded("a MassGen debugging aid"),
  use_skills: unsupported("MassGen's skills"),
  skills_directory: unsupported("MassGen's skills"),
  enable_agent_task_planning: PLANNING,
  task_planning_filesystem_mode: PLANNING,
  enable_subagents: SUBAGENTS,
  subagent_default_timeout: SUBAGENTS,
  subagent_max_concurrent: SUBAGENTS,
  subagent_orchestrator: SUBAGENTS,
};

/** Coordination keys (`orchestrator.coordination.KEY`). */
const COORDINATION_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  ...COORDINATION_FEATURE_KEYS,
  // MassGen reads these under `orchestrator.coordination` too.
  use_skills: unsupported("MassGen's skills"),
  skills_directory: unsupported("MassGen's skills"),
  subagent_orchestrator: SUBAGENTS,
  enable_planning_mode: PLANNING,
  planning_mode_instruction: PLANNING,
  enable_agent_task_planning: PLANNING,
  task_planning_filesystem_mode: PLANNING,
  max_tasks_per_plan: PLANNING,
  broadcast: PLANNING,
  max_orchestration_restarts: unsupported(
    "MassGen's orchestration restarts (the winner reviewing and restarting the run)",
  ),
  use_two_tier_workspace: unsupported("MassGen's two-tier (scratch/deliverable) workspace"),
  write_mode: WRITE_MODES,
  enable_memory_filesystem_mode: unsupported("MassGen's filesystem memory"),
  compression_target_ratio: unsupported("MassGen's context compression"),
  enable_subagents: SUBAGENTS,
  subagent_types: SUBAGENTS,
  subagent_default_timeout: SUBAGENTS,
  subagent_max_concurrent: SUBAGENTS,
  voting_sensitivity: useInstead("orchestrator.voting_sensitivity"),
  max_new_answers_per_agent: useInstead("orchestrator.max_new_answers_per_agent"),
};

/** Keys of one MCP server entry (`agents[].backend.mcp_servers[].KEY`). */
const MCP_SERVER_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  security: unsupported("MassGen's MCP security levels (coord starts the server as configured)"),
  timeout: unsupported(
    "MassGen's per-server connection timeout (each tool call is bounded by tool_timeout_seconds, default 120 s)",
  ),
  description: notNeeded("the server describes its own tools"),
};

/** Top-level keys. */
const TOP_LEVEL_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  memory: unsupported(
    "MassGen's memory system (coord's multi-turn memory is a session: --session-id)",
  ),
  session: useInstead("session_id (or --session-id)"),
  session_name: useInstead("session_id (or --session-id)"),
  rate_limits: notNeeded("it retries rate limits (429) itself, with backoff"),
  models: unsupported("MassGen v1 configs (write agents: [...])"),
  model_configs: unsupported("MassGen v1 configs (write agents: [...])"),
  num_agents: unsupported("MassGen v1 configs (write agents: [...])"),
  max_rounds: unsupported("MassGen v1 configs (write agents: [...])"),
  consensus_threshold: unsupported("MassGen v1 configs (write agents: [...])"),
};

/** `ui.KEY`. */
const UI_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  type: useInstead("ui.display_type"),
  show_agent_thinking: notNeeded("the live view always streams reasoning"),
  show_coordination: notNeeded("the live view always shows answers and votes"),
  automation_mode: useInstead("--automation"),
  enable_final_presentation: useInstead("orchestrator.skip_final_presentation"),
};

/** `timeout_settings.KEY`. */
const TIMEOUT_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  initial_round_timeout_seconds: ROUND_TIMEOUTS,
  subsequent_round_timeout_seconds: ROUND_TIMEOUTS,
  round_timeout_grace_seconds: ROUND_TIMEOUTS,
  agent_timeout_seconds: ROUND_TIMEOUTS,
};

/** `agents[].KEY`. */
const AGENT_KEYS: Readonly<Record<string, UnusedKeyReason>> = {
  voting_sensitivity: useInstead("orchestrator.voting_sensitivity"),
  agent_config: unsupported("AG2's agent settings (type: ag2 is a Python framework)"),
  persona: useInstead("system_message (or orchestrator.coordination.persona_generator)"),
};

/** Tables by parent path pattern (array indices as `[]`, MCP server names as `[]`). */
const TABLES: Readonly<Record<string, Readonly<Record<string, UnusedKeyReason>>>> = {
  "": TOP_LEVEL_KEYS,
  "agents[]": AGENT_KEYS,
  "agents[].backend": BACKEND_KEYS,
  "orchestrator.coordination.persona_generator.backend": BACKEND_KEYS,
  "agents[].backend.mcp_servers[]": MCP_SERVER_KEYS,
  orchestrator: ORCHESTRATOR_KEYS,
  "orchestrator.coordination": COORDINATION_KEYS,
  ui: UI_KEYS,
  timeout_settings: TIMEOUT_KEYS,
};

/**
 * The reason MassGen's key at `path` (in the normalized config: `agents[i]…`) is not read, or
 * undefined when coord knows nothing about it.
 */
export function massgenKeyReason(path: KeyPath): UnusedKeyReason | undefined {
  const key = path.at(-1);
  if (typeof key !== "string") return undefined;
  // Own keys only: a key named like an Object.prototype member (`toString`) is a plain key.
  const pattern = parentPattern(path.slice(0, -1));
  const table = Object.hasOwn(TABLES, pattern) ? TABLES[pattern] : undefined;
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `agents.0.backend.mcp_servers.web` → `agents[].backend.mcp_servers[]`. */
function parentPattern(path: KeyPath): string {
  let text = "";
  for (const [index, segment] of path.entries()) {
    const serverName = index > 0 && path[index - 1] === "mcp_servers";
    if (typeof segment === "number" || serverName) text += "[]";
    else text += text === "" ? segment : `.${segment}`;
  }
  return text;
}

/**
 * The warning text after `file:line:col: `, e.g. `ui.type: use ui.display_type instead (ignored)`,
 * `agents[0].backend.hooks: not supported in coord: MassGen's hook framework (ignored)`,
 * `unknown key agents[0].temprature (ignored); did you mean temperature?`.
 */
export function describeUnusedKey(
  key: string,
  reason: UnusedKeyReason | undefined,
  suggestion?: string,
): string {
  if (reason === undefined) {
    return `unknown key ${key} (ignored)${suggestion !== undefined ? `; did you mean ${suggestion}?` : ""}`;
  }
  switch (reason.kind) {
    case "unsupported":
      return `${key}: not supported in coord: ${reason.text} (ignored)`;
    case "not-needed":
      return `${key}: not needed in coord: ${reason.text} (ignored)`;
    case "use-instead":
      return `${key}: use ${reason.text} instead (ignored)`;
  }
}
