/**
 * How a peer's credentials are given to the peers API (write-only: the API never returns them).
 * The API validates with the schema; the dashboard's form and the command line send the type.
 * Client-safe: zod only.
 */
import { z } from 'zod';

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const PeerAuthInputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1, 'expected the bearer token') }),
  z.strictObject({
    type: z.literal('apiKey'),
    header: z.string().regex(HEADER_NAME, 'expected an HTTP header name').default('X-API-Key'),
    key: z.string().min(1, 'expected the API key'),
  }),
]);
export type PeerAuthInput = z.infer<typeof PeerAuthInputSchema>;
