// GET /api/session — who am I: {authenticated, role, via, open, expiresAt}
// POST /api/session — log in with {token}; sets the httpOnly session cookie
// DELETE /api/session — log out; clears the cookie
import { logIn, logOut, whoAmI } from '@/lib/auth/session-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = (req: Request) => whoAmI(req);
export const POST = (req: Request) => logIn(req);
export const DELETE = (req: Request) => logOut(req);
