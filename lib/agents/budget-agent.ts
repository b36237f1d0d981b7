import type { AgentRunner } from '../agent-runner';
import { sleep } from '../util/abortable';
import { namedNumber } from './turn-input';

export const BUDGET_EXHAUSTED = 'iteration budget exhausted';

/** What one `budget` task may ask for; more is refused before any work starts. */
export const BUDGET_LIMITS = { maxSteps: 10_000, maxStepMs: 60_000 };

/**
 * Works in steps against an iteration budget ("steps 5 budget 3", or metadata.steps /
 * metadata.budget). Running out before the work is done is a truncated run: FAILED with the
 * reason and the partial output attached, never COMPLETED.
 */
export const budgetRunner: AgentRunner = {
  async runTurn(turn) {
    const steps = Math.max(1, namedNumber(turn, 'steps', 5));
    const budget = Math.max(0, namedNumber(turn, 'budget', 3));
    const stepMs = namedNumber(turn, 'stepMs', 50);
    if (steps > BUDGET_LIMITS.maxSteps) return { state: 'rejected', reason: `output limit: steps: at most ${BUDGET_LIMITS.maxSteps} (asked ${steps})` };
    if (!(stepMs <= BUDGET_LIMITS.maxStepMs)) return { state: 'rejected', reason: `stepMs: at most ${BUDGET_LIMITS.maxStepMs}` };
    const done = Math.min(steps, budget);
    for (let i = 0; i < done; i++) {
      if (!(await sleep(stepMs, turn.signal))) return { state: 'failed', reason: 'aborted' };
      await turn.emit.artifact({
        artifact: { artifactId: 'steps', name: 'steps', parts: [{ kind: 'text', text: `step ${i + 1} of ${steps} done\n` }] },
        append: i > 0,
      });
    }
    if (done < steps) {
      return {
        state: 'failed',
        reason: BUDGET_EXHAUSTED,
        parts: [{ kind: 'text', text: `${BUDGET_EXHAUSTED}: completed ${done} of ${steps} steps (budget ${budget}); partial output attached` }],
        metadata: { truncated: true, stepsDone: done, stepsPlanned: steps, budget },
      };
    }
    return { state: 'completed', parts: [{ kind: 'text', text: `all ${steps} steps done` }] };
  },
};
