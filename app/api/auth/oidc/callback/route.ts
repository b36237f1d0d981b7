// GET /api/auth/oidc/callback?code&state — the provider's answer: checks state, nonce and PKCE,
// reads the role claim, sets the session cookie and returns to the page the sign-in started from.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { getSettings } from '@/lib/config/settings';
import { finishSignIn } from '@/lib/auth/dashboard-oidc';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, ({ req }) => {
  const settings = getSettings();
  if (!settings.oidcLogin) return apiError(404, 'not_found', 'sign-in through an OpenID provider is not configured (SWITCHBOARD_OIDC_LOGIN_CLIENT_ID)');
  return finishSignIn(req, settings);
});
