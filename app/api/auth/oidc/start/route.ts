// GET /api/auth/oidc/start?next=/path — dashboard sign-in through the OpenID provider: redirects
// to its authorization endpoint (code flow with PKCE). 404 when sign-in through a provider is off.
import { providerSignInRoute } from '@/lib/api/session-api';
import { startSignIn } from '@/lib/auth/dashboard-oidc';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = providerSignInRoute(startSignIn);
