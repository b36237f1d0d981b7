/** An agent's response window W and late-result grace G: its overrides, else the settings. */
import type { ServedAgent } from '../../agent-runner';
import { getSettings } from '../../config/settings';

export function timingFor(agent: ServedAgent) {
  const settings = getSettings();
  return {
    windowMs: agent.responseWindowMs ?? settings.responseWindowMs,
    graceMs: agent.lateResultGraceMs ?? settings.lateResultGraceMs,
  };
}
