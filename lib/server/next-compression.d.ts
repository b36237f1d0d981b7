// The compression middleware Next.js's server applies to every answer (next/dist/compiled
// compression, shipped untyped): a2a-first.ts applies the same one to the answers it gives.
declare module 'next/dist/compiled/compression' {
  import type http from 'node:http';
  type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  export default function compression(): Middleware;
}
