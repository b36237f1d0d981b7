// GET /api/session — who am I: {authenticated, role, via, open, expiresAt}
// POST /api/session — log in with {token}; sets the httpOnly session cookie (429 while throttled)
// DELETE /api/session — log out; clears the cookie (the logout survives a restart)
import { apiRoute } from '@/lib/api/route';
import { LOGIN_BODY_LIMIT, logIn, logOut, whoAmI } from '@/lib/api/session-api';
import { LoginRequestSchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, ({ req }) => whoAmI(req));
export const POST = apiRoute({ role: 'public', body: LoginRequestSchema, maxBodyBytes: LOGIN_BODY_LIMIT }, ({ req, body }) => logIn(req, body.token));
export const DELETE = apiRoute({ role: 'public' }, ({ req }) => logOut(req));
