/**
 * The tools of a team for one run (docs/tools.md), built from the config by the runner and handed
 * to the engine per agent: the run's workspaces, each agent's path policy and file tools, its
 * command tool, its MCP servers, the text telling it which folders it has, and the file access
 * `claude_code` confines its own tools to. Runner-side problems reach the run's events through
 * {@link TeamTools.notices}.
 */
import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import type { FileAccess } from "../backends/index.js";
import { type Config, mcpServerEntries } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { commandTool } from "./command-tool.js";
import { fileTools } from "./file-tools.js";
import { startMcpServers } from "./mcp-servers.js";
import { createNoticeChannel } from "./notice-channel.js";
import { createPathPolicy, isInside, type PathPolicy, type RootSpec } from "./path-policy.js";
import type { LocalTool, NoticeSource, WorkspaceHooks } from "./tool.js";
import { createRunWorkspaces, type RunWorkspaces } from "./workspaces.js";

/** Options of {@link createTeamTools}. */
export interface TeamToolsOptions {
  config: Config;
  /** Indexes into `config.agents` of the agents taking part, in config order. */
  agentIndexes: readonly number[];
  /** coord's working directory. */
  cwd: string;
  /** coord's environment (with ~/.config/coord/.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Names the run's workspace folder, e.g. `run_20260101_120000`. */
  runName: string;
  /**
   * Folders no agent may read even inside a context path: coord's run logs, which name the
   * agents behind the anonymous answers.
   */
  hidden?: readonly string[];
  /** A folder copied into every agent's workspace when it is created (a plan's result so far). */
  workspaceSeed?: string | undefined;
}

/** One agent's tools. */
export interface AgentTools {
  tools: LocalTool[];
  /** Present when the agent has a workspace or sees the others' snapshots. */
  workspace?: WorkspaceHooks;
  /** Added to the agent's system message: its folders and what it may do there. */
  systemNote?: string;
  /** For backends that run their own file tools (`claude_code`). */
  files?: FileAccess;
}

/** The team's tools. */
export interface TeamTools {
  /** Parallel to `agentIndexes`. */
  agents: AgentTools[];
  /** The run's workspaces, when any agent has one or reads context paths. */
  workspaces: RunWorkspaces | undefined;
  notices: NoticeSource;
  /** Starts every agent's MCP servers and adds their tools (failures are notices). */
  startMcp(): Promise<void>;
  /** Closes the MCP servers and the run's views (after the run). */
  close(): Promise<void>;
  /** Closes everything and removes the run's folders: for a run that never started. */
  discard(): Promise<void>;
}

/** The workspace folder name of an agent: `backend.cwd`, else its id when it needs one. */
function workspaceName(agent: Config["agents"][number]): string | undefined {
  const backend = agent.backend;
  if (backend.cwd !== undefined) return backend.cwd;
  return backend.enable_mcp_command_line === true || backend.type === "claude_code"
    ? agent.id
    : undefined;
}

/**
 * Checks the context paths (each must exist), creates the run's workspaces and every agent's
 * tools. MCP servers start later, with {@link TeamTools.startMcp}.
 * @throws ConfigError naming `orchestrator.context_paths[i].path` for a path that does not exist.
 */
export async function createTeamTools(options: TeamToolsOptions): Promise<TeamTools> {
  const { config, cwd } = options;
  const channel = createNoticeChannel();
  const contexts = await checkContextPaths(config, cwd);
  const agents = options.agentIndexes.map((index, position) => ({
    config: config.agents[index]!,
    index,
    anonId: `agent${position + 1}`,
    workspaceName: workspaceName(config.agents[index]!),
  }));
  const needsFolders = contexts.length > 0 || agents.some((agent) => agent.workspaceName);
  const workspaces = needsFolders
    ? await createRunWorkspaces({
        cwd,
        runName: options.runName,
        agents: agents.map((agent) => ({
          id: agent.config.id,
          anonId: agent.anonId,
          workspaceName: agent.workspaceName,
        })),
        snapshotStorage: config.orchestrator.snapshot_storage,
        temporaryWorkspace: config.orchestrator.agent_temporary_workspace,
        notify: channel.send,
        ...(options.workspaceSeed !== undefined ? { seed: options.workspaceSeed } : {}),
      })
    : undefined;
  const peersHaveWork = (id: string) =>
    agents.some((agent) => agent.config.id !== id && agent.workspaceName !== undefined);

  const built: AgentTools[] = [];
  for (const agent of agents) {
    const id = agent.config.id;
    const backend = agent.config.backend;
    const own = workspaces?.workspaceOf(id);
    const view = workspaces !== undefined && peersHaveWork(id) ? workspaces.viewOf(id) : undefined;
    const roots: RootSpec[] = (options.hidden ?? []).map((path) => ({
      path,
      access: "none",
      label: "coord's run logs",
    }));
    if (workspaces !== undefined) {
      roots.push({ path: workspaces.allRuns, access: "none", label: "other workspaces" });
      for (const hidden of workspaces.hiddenRoots())
        roots.push({ path: hidden, access: "none", label: "snapshot store" });
    }
    if (own !== undefined) roots.push({ path: own, access: "write", label: "your workspace" });
    if (view !== undefined)
      roots.push({ path: view, access: "read", label: "the other agents' latest work" });
    for (const context of contexts) {
      roots.push({
        path: context.path,
        access: context.permission === "write" ? "present-write" : "read",
        label:
          context.permission === "write"
            ? "context path, writable by the presenter"
            : "context path",
      });
      for (const path of context.protectedPaths)
        roots.push({ path, access: "protected", label: "protected" });
    }
    const base = own ?? contexts[0]?.path ?? view;
    const tools: LocalTool[] = [];
    let policy: PathPolicy | undefined;
    if (base !== undefined) {
      policy = await createPathPolicy({ base, roots });
      const writable = roots.some(
        (root) => root.access === "write" || root.access === "present-write",
      );
      tools.push(...fileTools(policy, { writable }));
    }
    if (backend.enable_mcp_command_line === true && own !== undefined) {
      tools.push(
        commandTool({
          cwd: own,
          env: options.env,
          // coord's working directory read-only wherever it is (the sandbox's /tmp is private).
          roots: [{ path: cwd, access: "read", label: "coord's working directory" }, ...roots],
          allowed: backend.command_line_allowed_commands ?? [],
          blocked: backend.command_line_blocked_commands ?? [],
          sandbox: backend.command_sandbox ?? "bubblewrap",
          network: backend.command_network === true,
          passEnv: backend.command_env ?? [],
        }),
      );
      if (backend.command_line_execution_mode === "docker") {
        channel.send({
          agentId: id,
          source: "execute_command",
          message: dockerNotice(agent.index),
        });
      }
    }
    const entry: AgentTools = { tools };
    if (workspaces !== undefined && (own !== undefined || view !== undefined))
      entry.workspace = workspaces.hooksFor(id);
    const note = systemNote({
      own,
      view,
      peers: agents
        .filter((peer) => peer.config.id !== id && peer.workspaceName !== undefined)
        .map((peer) => peer.anonId),
      contexts,
      tools: tools.map((tool) => tool.spec.name),
    });
    if (note !== undefined) entry.systemNote = note;
    if (own !== undefined && policy !== undefined) entry.files = fileAccess(own, policy);
    built.push(entry);
  }

  const mcpClosers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(mcpClosers.splice(0).map((closeServers) => closeServers()));
    await workspaces?.close();
  };
  return {
    agents: built,
    workspaces,
    notices: channel,
    async startMcp() {
      await Promise.all(
        agents.map(async (agent, position) => {
          const backend = agent.config.backend;
          const servers = mcpServerEntries(backend.mcp_servers, [
            "agents",
            agent.index,
            "backend",
            "mcp_servers",
          ]);
          if (servers.length === 0) return;
          const started = await startMcpServers({
            servers,
            allowedTools:
              typeof backend.allowed_tools === "string"
                ? backend.allowed_tools.split(",").map((name) => name.trim())
                : backend.allowed_tools,
            excludeTools: backend.exclude_tools,
            env: options.env,
            workspace: workspaces?.workspaceOf(agent.config.id) ?? cwd,
            cwd,
            agentId: agent.config.id,
            notify: channel.send,
          });
          mcpClosers.push(started.close);
          built[position]!.tools.push(...started.tools);
        }),
      );
    },
    close,
    async discard() {
      await close();
      await workspaces?.remove();
    },
  };
}

/** The warning for MassGen's `command_line_execution_mode: docker`: what differs from Docker. */
function dockerNotice(index: number): string {
  return `agents[${index}].backend.command_line_execution_mode: docker: commands run in coord's bubblewrap sandbox, not in a container: no image (the host's programs), the host's filesystem read-only except the workspace, no network unless command_network: true (docs/tools.md "Commands")`;
}

interface CheckedContext {
  path: string;
  permission: "read" | "write";
  protectedPaths: string[];
}

/** The context paths, absolute; @throws ConfigError for one that does not exist. */
async function checkContextPaths(config: Config, cwd: string): Promise<CheckedContext[]> {
  const checked: CheckedContext[] = [];
  for (const [index, entry] of config.orchestrator.context_paths.entries()) {
    const path = resolve(cwd, entry.path);
    const key = `orchestrator.context_paths[${index}].path`;
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) {
      throw new ConfigError(
        `${key}: ${path} does not exist: create it, or fix the path in the config`,
        { path: key },
      );
    }
    const protectedPaths = entry.protected_paths.map((item, position) => {
      const full = isAbsolute(item) ? item : resolve(path, item);
      if (!isInside(full, path)) {
        throw new ConfigError(
          `orchestrator.context_paths[${index}].protected_paths[${position}]: ${item} is not inside ${path}`,
          { path: `orchestrator.context_paths[${index}].protected_paths[${position}]` },
        );
      }
      return full;
    });
    checked.push({ path, permission: entry.permission, protectedPaths });
  }
  return checked;
}

function fileAccess(workspace: string, policy: PathPolicy): FileAccess {
  return {
    workspace,
    readRoots: policy.roots
      .filter(
        (root) =>
          root.access !== "none" && root.access !== "protected" && root.real !== policy.base,
      )
      .map((root) => root.real),
    async refusal(path, mode) {
      try {
        await policy.resolve(path, mode, false);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  };
}

/** The lines telling an agent which folders it has (none: undefined). */
function systemNote(options: {
  own: string | undefined;
  view: string | undefined;
  /** Anonymous ids of the other agents with a workspace. */
  peers: readonly string[];
  contexts: readonly CheckedContext[];
  /** The agent's tool names. */
  tools: readonly string[];
}): string | undefined {
  const lines: string[] = [];
  if (options.own !== undefined) {
    lines.push(
      `- Your workspace (read and write; relative paths start here; it is snapshotted with each answer you give, and the other agents see it): ${options.own}`,
    );
  }
  if (options.view !== undefined) {
    const names = options.peers.map((anonId) => `${options.view}/${anonId}`);
    lines.push(
      `- The other agents' latest work, read-only, under their anonymous ids (filled in once they answer): ${names.join(", ")}`,
    );
  }
  for (const context of options.contexts) {
    lines.push(
      context.permission === "write"
        ? `- ${context.path}: context path; only the agent presenting the final answer may write there, so draft changes in your workspace`
        : `- ${context.path}: context path, read-only`,
    );
    for (const path of context.protectedPaths) lines.push(`- ${path}: protected, never writable`);
  }
  if (options.tools.includes("execute_command"))
    lines.push("- execute_command runs shell commands in your workspace.");
  if (lines.length === 0) return undefined;
  const fileTools = options.tools.filter(
    (name) => !name.startsWith("mcp__") && name !== "execute_command",
  );
  return [
    `Files: use the file tools (${fileTools.join(", ")}) with paths inside these folders:`,
    ...lines,
  ].join("\n");
}
