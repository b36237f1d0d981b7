/**
 * A message's parts must fit the agent's input modes (A2A §3.1.1): a part whose media type the
 * agent does not accept is refused with ContentTypeNotSupported (-32005; HTTP+JSON 415) before
 * any task exists, naming the part and what the agent accepts.
 */
import type { ServedAgent } from '../agent-runner';
import { A2AError } from '../protocol/errors';
import { acceptsMediaType, baseMediaType, DEFAULT_INPUT_MODES } from '../protocol/media-types';

export function inputModesOf(agent: ServedAgent): readonly string[] {
  return agent.inputModes ?? DEFAULT_INPUT_MODES;
}

export function assertInputModes(agent: ServedAgent, partMediaTypes: readonly (string | undefined)[]): void {
  const modes = inputModesOf(agent);
  const index = partMediaTypes.findIndex((type) => type !== undefined && !acceptsMediaType(modes, type));
  if (index < 0) return;
  const type = baseMediaType(partMediaTypes[index]!).slice(0, 128);
  throw new A2AError('contentTypeNotSupported', `params.message.parts[${index}]: media type ${type} is not among agent ${agent.slug}'s input modes (${modes.join(', ')})`);
}
