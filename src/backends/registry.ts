/**
 * The backend registry: turns an agent's `backend` config into a {@link Backend} through its
 * type's provider descriptor (`src/config/provider-descriptors/`) and that descriptor's factory
 * (`./providers/index.ts`, one signature for all). Provider modules are imported only when a
 * config uses them, so `coord --help` stays fast.
 */
import { type AgentConfig, descriptorOf } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { Backend } from "./backend.js";
import { type BackendContext, withFactory } from "./providers/index.js";

export type { BackendContext } from "./providers/index.js";

/**
 * Creates the backend of one agent.
 * @param index the agent's 0-based position, for messages (`agents[1].backend`).
 * @throws ConfigError naming the agent when the backend cannot be set up (missing key or model,
 *   unknown file, a type this version does not run).
 */
export async function createBackend(
  agent: AgentConfig,
  index: number,
  context: BackendContext,
): Promise<Backend> {
  return createBackendAt(
    agent,
    { where: `agents[${index}] (${agent.id})`, path: `agents[${index}].backend` },
    context,
  );
}

/**
 * Creates a backend configured elsewhere than `agents[]` (the persona generator's).
 * @param at how messages name it (`where`) and the dotted path of its `backend` key.
 * @throws ConfigError as {@link createBackend}, naming `at`.
 */
export async function createBackendAt(
  agent: AgentConfig,
  at: { where: string; path: string },
  context: BackendContext,
): Promise<Backend> {
  try {
    return await instantiate(agent, context);
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${at.where}: ${error.message}`, { ...error.details, path: at.path });
    }
    throw error;
  }
}

/** The agent's backend, built by its type's descriptor's factory. */
async function instantiate(agent: AgentConfig, context: BackendContext): Promise<Backend> {
  const config = agent.backend;
  const descriptor = descriptorOf(config.type);
  // Every schema type has a descriptor; a config that bypassed the schema may not.
  if (descriptor === undefined) throw new ConfigError(`unknown backend type ${config.type}`);
  return withFactory(descriptor).create(config, { ...context, agentId: agent.id });
}
