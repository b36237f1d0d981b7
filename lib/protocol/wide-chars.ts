/**
 * Characters outside Latin-1 that server code prints, made at run time rather than written in
 * the source. V8 keeps a script's source as a one-byte string only while every character in it
 * fits in Latin-1: a single "…" in the server's main chunk made the whole 0.7 MB chunk a
 * two-byte string, held for the life of the process (decision 435).
 * tests/server/loaded-modules.test.ts checks the chunks a started server loads.
 */
export const ELLIPSIS = String.fromCharCode(0x2026);
export const LEFT_ARROW = String.fromCharCode(0x2190);
export const RIGHT_ARROW = String.fromCharCode(0x2192);
