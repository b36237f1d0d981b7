/**
 * Switchboard's resident memory under load is mostly V8 heap sizing: on a 24 GiB machine V8 lets
 * garbage pile up to a few hundred MB before a full collection. Scenarios 2 and 4 therefore also
 * run Switchboard with the old generation capped, to show the RSS it needs, not the RSS V8 takes.
 */
export const HEAP_CAP_MB = 256;
export const HEAP_CAP_FLAG = `--max-old-space-size=${HEAP_CAP_MB}`;
