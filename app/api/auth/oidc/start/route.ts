// GET /api/auth/oidc/start?next=/path — dashboard sign-in through the OpenID provider: redirects
// to its authorization endpoint (code flow with PKCE). 404 when sign-in through a provider is off.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { getSettings } from '@/lib/config/settings';
import { startSignIn } from '@/lib/auth/dashboard-oidc';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, ({ req }) => {
  const settings = getSettings();
  if (!settings.oidcLogin) return apiError(404, 'not_found', 'sign-in through an OpenID provider is not configured (SWITCHBOARD_OIDC_LOGIN_CLIENT_ID)');
  return startSignIn(req, settings);
});
