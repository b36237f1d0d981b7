// GET /.well-known/jwks.json — the public keys agent card signatures verify with (the `jku` of their protected header).
import { serveJwks } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(req: Request): Promise<Response> {
  return serveJwks(req);
}
