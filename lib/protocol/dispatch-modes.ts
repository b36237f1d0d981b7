/**
 * How a dispatch waits for its peer: the API's `mode` field, the dashboard's picker and the
 * command line's --mode all name these. Client-safe.
 */
export const DISPATCH_MODES = ['blocking', 'streaming', 'background'] as const;
export type DispatchMode = (typeof DISPATCH_MODES)[number];
