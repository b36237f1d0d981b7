// GET /api/auth/oidc/callback?code&state — the provider's answer: checks state, nonce and PKCE,
// reads the role claim, sets the session cookie and returns to the page the sign-in started from.
import { providerSignInRoute } from '@/lib/api/session-api';
import { finishSignIn } from '@/lib/auth/dashboard-oidc';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = providerSignInRoute(finishSignIn);
