import type { ServedAgent } from '../agent-runner';
import { echoRunner } from './echo-agent';
import { slowRunner } from './slow-agent';
import { budgetRunner } from './budget-agent';
import { askRunner } from './ask-agent';

/** The built-in agents: for trying Switchboard out and for the tests. `echo` is the default. */
export function builtinAgents(): ServedAgent[] {
  return [
    {
      slug: 'echo',
      name: 'Echo',
      description: 'Completes at once with the input text as an artifact.',
      skills: [{ id: 'echo', name: 'Echo', description: 'Returns the input text.', tags: ['demo'], examples: ['hello'] }],
      runner: echoRunner,
    },
    {
      slug: 'slow',
      name: 'Slow',
      description: 'A long task: runs for the requested time, reports progress and streams its result in chunks.',
      skills: [{ id: 'slow', name: 'Slow work', description: 'Works for a while, streaming chunks.', tags: ['demo', 'long'], examples: ['work 45s', 'work 3s chunks 20 size 100'] }],
      runner: slowRunner,
    },
    {
      slug: 'budget',
      name: 'Budget',
      description: 'Works in steps against an iteration budget; ends FAILED when the budget runs out first.',
      skills: [{ id: 'budget', name: 'Budgeted steps', description: 'Runs steps within a budget.', tags: ['demo'], examples: ['steps 5 budget 3'] }],
      runner: budgetRunner,
    },
    {
      slug: 'ask',
      name: 'Ask',
      description: 'Asks for input, then completes on the follow-up message in the same task.',
      skills: [{ id: 'ask', name: 'Ask', description: 'Multi-turn: asks a question first.', tags: ['demo', 'multi-turn'], examples: ['greet me'] }],
      runner: askRunner,
    },
  ];
}
