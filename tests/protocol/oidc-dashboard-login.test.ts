/**
 * Operators sign in to the dashboard through the OpenID provider. A real
 * `oidc-provider` runs the authorization code flow with PKCE; its login and consent are
 * completed by the test (the provider's own interaction API), and a small cookie-keeping client
 * follows every redirect as a browser would. The role comes from the ID token's `roles` claim;
 * the session is the dashboard's usual cookie; token login keeps working.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { createTestProvider, type TestProvider } from '../support/oidc-provider';
import { postJson } from '../support/dispatch-api';

const OPERATOR_TOKEN = 'operator-token-for-the-sign-in-test';
const CLIENT = { id: 'switchboard-dashboard', secret: 'dashboard-secret-0123456789abcdef' };
const ACCOUNTS: Record<string, { roles?: string[] }> = {
  alice: { roles: ['switchboard-operator', 'staff'] },
  victor: { roles: ['switchboard-viewer'] },
  nobody: { roles: ['staff'] },
};

let app: AppServer;
let idp: http.Server;
let test: TestProvider;
/** Who the provider's login step signs in next. */
let nextAccount = 'alice';

async function completeInteraction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { provider } = test;
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: nextAccount } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

async function startProvider(appUrl: string): Promise<void> {
  const port = await freePort();
  test = await createTestProvider(`http://127.0.0.1:${port}`, [
    { client_id: CLIENT.id, client_secret: CLIENT.secret, grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: [`${appUrl}/api/auth/oidc/callback`], token_endpoint_auth_method: 'client_secret_basic' },
  ], {}, 'urn:none', {
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...ACCOUNTS[id] }) }),
    claims: { openid: ['sub'], roles: ['roles'] },
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { resourceIndicators: { enabled: false } },
  });
  idp = http.createServer((req, res) => {
    if (/^\/interaction\/[\w-]+$/.test((req.url ?? '').split('?')[0])) completeInteraction(req, res).catch((err) => res.writeHead(500).end(String(err)));
    else test.callback(req, res);
  });
  await new Promise<void>((resolve) => idp.listen(port, '127.0.0.1', resolve));
}

/** A browser's cookies, per origin (enough for loopback servers on different ports). */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  private store(origin: string, res: Response): void {
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const expired = attrs.some((a) => /^\s*max-age=0$/i.test(a));
      if (expired || pair.slice(eq + 1) === '') cookies.delete(pair.slice(0, eq).trim());
      else cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    this.jar.set(origin, cookies);
  }

  /** GETs `url` and follows redirects; returns the last response and every URL visited. */
  async visit(url: string): Promise<{ res: Response; visited: string[] }> {
    const visited: string[] = [];
    let current = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
      visited.push(current.href);
      const cookies = [...(this.jar.get(current.origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(current, { redirect: 'manual', headers: cookies ? { Cookie: cookies } : {} });
      this.store(current.origin, res);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, visited };
      await res.body?.cancel();
      current = new URL(location, current);
    }
    throw new Error(`too many redirects: ${visited.join(' → ')}`);
  }
}

async function session(browser: Browser) {
  const cookie = browser.cookie(app.url, 'sb_session');
  const res = await fetch(`${app.url}/api/session`, { headers: cookie ? { Cookie: `sb_session=${cookie}` } : {} });
  return res.json() as Promise<{ authenticated: boolean; role: string | null; via: string | null }>;
}

async function signIn(account: string, next = '/tasks') {
  nextAccount = account;
  const browser = new Browser();
  const { visited } = await browser.visit(`${app.url}/api/auth/oidc/start?next=${encodeURIComponent(next)}`);
  return { browser, visited, landed: new URL(visited.at(-1)!) };
}

beforeAll(async () => {
  const port = await freePort();
  await startProvider(`http://127.0.0.1:${port}`);
  app = await startApp(
    {
      SWITCHBOARD_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SWITCHBOARD_OIDC_LOGIN_ISSUER: test.issuer,
      SWITCHBOARD_OIDC_LOGIN_CLIENT_ID: CLIENT.id,
      SWITCHBOARD_OIDC_LOGIN_CLIENT_SECRET: CLIENT.secret,
      SWITCHBOARD_OIDC_LOGIN_SCOPES: 'openid roles',
      SWITCHBOARD_OIDC_LOGIN_NAME: 'Test IdP',
      SWITCHBOARD_LOG_LEVEL: 'info',
    },
    { port },
  );
});
afterAll(async () => {
  await app?.stop();
  idp?.close();
});

describe('dashboard sign-in through the OpenID provider', () => {
  it('an account with the operator role gets an operator session and lands where it started', async () => {
    const { browser, visited, landed } = await signIn('alice');
    const authorize = new URL(visited[1]);
    expect(authorize.origin).toBe(test.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(landed.href).toBe(`${app.url}/tasks`);
    expect(await session(browser)).toMatchObject({ authenticated: true, role: 'operator', via: 'session' });
    const cookie = browser.cookie(app.url, 'sb_session')!;
    const peers = await fetch(`${app.url}/api/peers`, { headers: { Cookie: `sb_session=${cookie}` } });
    expect(peers.status).toBe(200);
    expect(app.logs()).not.toContain(CLIENT.secret);
  });

  it('the viewer role gives a viewer session, which operator routes refuse', async () => {
    const { browser } = await signIn('victor');
    expect(await session(browser)).toMatchObject({ authenticated: true, role: 'viewer' });
    const cookie = browser.cookie(app.url, 'sb_session')!;
    const refused = await postJson(`${app.url}/api/dispatch`, { peer: 'self', text: 'x' }, { Cookie: `sb_session=${cookie}`, Origin: app.url });
    expect(refused.status).toBe(403);
  });

  it('an account without a Switchboard role gets no session and the reason on the login page', async () => {
    const { browser, landed } = await signIn('nobody');
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('error')).toBe('no_role');
    expect(browser.cookie(app.url, 'sb_session')).toBeUndefined();
    expect(await session(browser)).toMatchObject({ authenticated: false });
    const page = await (await fetch(landed)).text();
    expect(page).toContain('Your Test IdP account has no Switchboard role (switchboard-operator or switchboard-viewer in its roles claim).');
  });

  it('a callback without the flow cookie, or with another state, signs nobody in', async () => {
    const stray = await fetch(`${app.url}/api/auth/oidc/callback?code=abc&state=xyz`, { redirect: 'manual' });
    expect(stray.headers.get('location')).toBe('/login?error=expired');
    expect(stray.headers.getSetCookie().some((c) => c.startsWith('sb_session='))).toBe(false);

    // A real flow's cookie, with the state of the answer changed: refused by the state check.
    nextAccount = 'alice';
    const browser = new Browser();
    const start = await fetch(`${app.url}/api/auth/oidc/start`, { redirect: 'manual' });
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('sb_oidc_flow='))!.split(';')[0];
    const { visited } = await browser.visit(start.headers.get('location')!.replace(/state=[^&]+/, 'state=forged'));
    const callback = new URL(visited.find((u) => u.startsWith(`${app.url}/api/auth/oidc/callback`))!);
    const forged = await fetch(callback, { redirect: 'manual', headers: { Cookie: flowCookie } });
    expect(forged.headers.get('location')).toBe('/login?error=failed');
    expect(forged.headers.getSetCookie().some((c) => c.startsWith('sb_session='))).toBe(false);
  });

  it('the login page offers the provider next to the token, shows no text a link brings, and token login still works', async () => {
    const page = await (await fetch(`${app.url}/login?next=%2Fpeers&error=${encodeURIComponent('Call +1 555 to unlock')}`)).text();
    expect(page).toMatch(/Sign in with (<!-- -->)?Test IdP/);
    expect(page).toContain('/api/auth/oidc/start?next=%2Fpeers');
    expect(page).not.toContain('Call +1 555');
    const login = await postJson(`${app.url}/api/session`, { token: OPERATOR_TOKEN });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ authenticated: true, role: 'operator' });
  });
});
