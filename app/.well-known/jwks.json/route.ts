// GET /.well-known/jwks.json — the public keys agent card signatures verify with (the `jku` of their protected header).
import { switchboard } from '@/lib/app';
import { serveJwks } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveJwks(req);
}
