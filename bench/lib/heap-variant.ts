/**
 * Scenarios 2 and 4 also run Switchboard with V8's own heap sizing, to show what the shipped
 * bound buys (SWITCHBOARD_HEAP_GROWTH_PERCENT, docs/decisions.md 14): on a machine with plenty of
 * memory V8 lets request garbage pile up to ~4× the live heap before a full collection. The
 * comparison is reported, not a target.
 */
export const V8_GROWTH_LABEL = "V8's own heap growth";
export const V8_GROWTH_ENV = { SWITCHBOARD_HEAP_GROWTH_PERCENT: '0' };
