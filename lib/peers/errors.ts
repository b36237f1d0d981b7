/**
 * The error peers and dispatch raise for their HTTP callers: an HTTP status, a stable code and
 * a message naming the field. lib/api/route.ts renders it with the REST error shape.
 */
export class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
