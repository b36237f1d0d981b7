/**
 * The served agents: built-ins plus those declared in the config file. Built once per process;
 * config errors are logged (each naming file, agent and key) and the valid agents still served.
 */
import type { ServedAgent } from '../engine/agent';
import { builtinAgents } from './builtin-agents';
import { fileConfig, isPeerConfigError, type AgentConfig } from '../config/file-config';
import { getSettings } from '../config/settings';
import { createLauncherRunner } from '../launchers';
import { processSingleton } from '../process-singleton';
import { log } from '../log';

function fromConfig(agent: AgentConfig, baseDir: string): ServedAgent {
  return {
    slug: agent.slug,
    name: agent.name,
    description: agent.description || agent.name,
    skills: agent.skills.length
      ? agent.skills.map((s) => ({ ...s, description: s.description || s.name }))
      : [{ id: agent.slug, name: agent.name, description: agent.description || agent.name, tags: ['launcher'] }],
    responseWindowMs: agent.responseWindowSeconds !== undefined ? agent.responseWindowSeconds * 1000 : undefined,
    lateResultGraceMs: agent.lateResultGraceSeconds !== undefined ? agent.lateResultGraceSeconds * 1000 : undefined,
    runner: createLauncherRunner(agent.launcher, { slug: agent.slug, baseDir }),
  };
}

export interface AgentRegistry {
  agents: Map<string, ServedAgent>;
  configErrors: string[];
}

function buildRegistry(): AgentRegistry {
  const config = fileConfig();
  for (const error of config.errors.filter((e) => !isPeerConfigError(e))) log.error('config error; entry not served', { error });
  const agents = new Map<string, ServedAgent>(builtinAgents().map((a) => [a.slug, a]));
  for (const agent of config.agents) {
    try {
      agents.set(agent.slug, fromConfig(agent, config.baseDir));
    } catch (err) {
      const error = `${config.file}: agents "${agent.slug}": launcher.${(err as Error).message}`;
      config.errors.push(error);
      log.error('config error; entry not served', { error });
    }
  }
  return { agents, configErrors: config.errors };
}

export function agentRegistry(): AgentRegistry {
  return processSingleton('agent-registry', buildRegistry);
}

export function findAgent(slug: string): ServedAgent | undefined {
  return agentRegistry().agents.get(slug);
}

/** The agent at the root card and `/a2a` (SWITCHBOARD_DEFAULT_AGENT; boot refuses an unknown one). */
export function defaultAgent(): ServedAgent {
  return agentRegistry().agents.get(getSettings().defaultAgent)!;
}

/** Why the configured default agent cannot be served, or null when it can. */
export function defaultAgentProblem(): string | null {
  const slug = getSettings().defaultAgent;
  const { agents } = agentRegistry();
  if (agents.has(slug)) return null;
  return `SWITCHBOARD_DEFAULT_AGENT=${slug} names no served agent (served: ${[...agents.keys()].join(', ')})`;
}
