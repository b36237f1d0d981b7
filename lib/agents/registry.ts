/**
 * The served agents: built-ins plus those declared in the config file. Built once per process;
 * config errors are logged (each naming file, agent and key) and the valid agents still served.
 */
import type { ServedAgent } from '../agent-runner';
import { builtinAgents } from './builtin-agents';
import { configIssue, fileConfig, isPeerConfigError, relayPeerName, type AgentConfig, type ConfigIssue } from '../config/file-config';
import { relayRunner } from './relay-port';
import { getSettings } from '../config/settings';
import { delegationEnv } from '../auth/delegation-env';
import { createLauncherRunner, LauncherConfigError, MAX_SESSIONS, reapOrphanedGroups } from '../launchers';
import { launchedGroupLedger } from '../db/launched-group-repo';
import { launcherSessionStore } from '../db/launcher-session-repo';
import { appPart } from '../process-singleton';
import { log } from '../log';

const withDescription = (skills: NonNullable<AgentConfig['skills']>) => skills.map((s) => ({ ...s, description: s.description || s.name }));

function cardFacts(agent: AgentConfig, kind: string): Pick<ServedAgent, 'name' | 'description' | 'skills' | 'extendedSkills'> {
  const name = agent.name ?? agent.slug;
  const description = agent.description || name;
  const skills = agent.skills?.length ? withDescription(agent.skills) : [{ id: agent.slug, name, description, tags: [kind] }];
  return { name, description, skills, extendedSkills: agent.extendedSkills ? withDescription(agent.extendedSkills) : undefined };
}

function fromConfig(agent: AgentConfig, baseDir: string): ServedAgent {
  const common = {
    slug: agent.slug,
    responseWindowMs: agent.responseWindowSeconds !== undefined ? agent.responseWindowSeconds * 1000 : undefined,
    lateResultGraceMs: agent.lateResultGraceSeconds !== undefined ? agent.lateResultGraceSeconds * 1000 : undefined,
    extensions: agent.extensions,
    inputModes: agent.inputModes ? [...new Set(agent.inputModes)] : undefined,
  };
  if (agent.relay) {
    const peer = agent.relay.peer ?? relayPeerName(agent.slug);
    return { ...common, ...cardFacts(agent, 'relay'), runner: relayRunner({ peer, slug: agent.slug }), relay: { peer }, resumable: true, cardDefaults: relayCardDefaults(agent) };
  }
  return {
    ...common,
    ...cardFacts(agent, 'launcher'),
    runner: createLauncherRunner(agent.launcher!, { slug: agent.slug, baseDir, ledger: launchedGroupLedger, sessions: launcherSessionStore(MAX_SESSIONS), turnEnv: delegationEnv }),
    launcher: true,
  };
}

/** Which card facts of a relay agent the config left to the peer's card. */
function relayCardDefaults(agent: AgentConfig): ServedAgent['cardDefaults'] {
  const open = { name: !agent.name, description: agent.description === undefined, skills: !agent.skills?.length };
  return open.name || open.description || open.skills ? open : undefined;
}

export interface AgentRegistry {
  agents: Map<string, ServedAgent>;
  /** Every config problem: the file's, and launchers that parsed but cannot run here. */
  configErrors: ConfigIssue[];
}

function buildRegistry(): AgentRegistry {
  const config = fileConfig();
  for (const error of config.errors.filter((e) => !isPeerConfigError(e))) log.error('config error; entry not served', { error });
  const agents = new Map<string, ServedAgent>(builtinAgents().map((a) => [a.slug, a]));
  for (const agent of config.agents) {
    try {
      agents.set(agent.slug, fromConfig(agent, config.baseDir));
    } catch (err) {
      const issues = err instanceof LauncherConfigError ? err.issues : [{ path: [], message: (err as Error).message }];
      for (const issue of issues) {
        const found = configIssue(config.file ?? null, `agents "${agent.slug}"`, ['launcher', ...issue.path].join('.'), issue.message);
        config.issues.push(found);
        log.error('config error; entry not served', { error: found.text });
      }
    }
  }
  return { agents, configErrors: config.issues };
}

/**
 * Ends the process groups a hub that died (kill -9, OOM, power) left running; boot calls it
 * before recovering interrupted tasks, so no task reads "interrupted" while its run goes on.
 */
export async function reapOrphanedLaunches(): Promise<number> {
  const reaped = await reapOrphanedGroups(launchedGroupLedger, (level, message) => log[level](message, { launcher: 'start-up' }));
  return reaped.length;
}

export function agentRegistry(): AgentRegistry {
  return appPart('agents', buildRegistry);
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

declare module '../process-singleton' {
  interface AppParts {
    /** The served agents. */
    agents: AgentRegistry;
  }
}
