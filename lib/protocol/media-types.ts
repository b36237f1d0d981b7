/**
 * Input modes: the media types an agent accepts in a message's parts (its card's
 * `defaultInputModes`). A part whose media type is not among them is refused with
 * ContentTypeNotSupported (-32005; HTTP+JSON 415), A2A §3.1.1.
 */
import type { Part } from './types';

/** What every built-in agent and, unless its config says otherwise, every launcher accepts. */
export const DEFAULT_INPUT_MODES: readonly string[] = ['text/plain', 'application/json'];

/** `type/subtype` (or a `type/*`, `*\/*` wildcard), lowercase, as a config may declare it. */
export const MEDIA_RANGE = /^(\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$/;

/** The type without parameters, lowercased: `Text/Plain; charset=utf-8` → `text/plain`. */
export function baseMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

/** Whether `type` (a part's media type) falls under one of the agent's input modes. */
export function acceptsMediaType(modes: readonly string[], type: string): boolean {
  const base = baseMediaType(type);
  const major = base.split('/')[0];
  return modes.some((mode) => mode === '*/*' || mode === base || mode === `${major}/*`);
}

/**
 * The media type a part declares, or what its kind implies: text is `text/plain` and data
 * `application/json` unless they say otherwise. A file that names no type has none (undefined):
 * nothing says it does not fit, so it is not refused. An empty string counts as none (the a2a-js
 * 1.x client sends `mediaType: ''` on every part).
 */
export function partMediaType(part: Part, declared?: string): string | undefined {
  if (declared) return declared;
  if (part.kind === 'text') return 'text/plain';
  if (part.kind === 'data') return 'application/json';
  return part.file.mimeType || undefined;
}
