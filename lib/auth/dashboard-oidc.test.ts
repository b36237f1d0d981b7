import { describe, expect, it } from 'vitest';
import { roleFromClaims, signInErrorText } from './dashboard-oidc';
import { issueSession, verifySession } from './session';
import type { OidcLoginSettings } from '../config/settings';

const login: OidcLoginSettings = { issuer: 'https://idp.example', clientId: 'c', scopes: 'openid', name: 'Acme SSO', roleClaim: 'roles', operatorRole: 'sb-op', viewerRole: 'sb-view' };

describe('dashboard sign-in through a provider', () => {
  it('takes the role from a list or a string claim, operator first, nothing else', () => {
    expect(roleFromClaims({ roles: ['x', 'sb-view', 'sb-op'] }, login)).toBe('operator');
    expect(roleFromClaims({ roles: 'sb-view other' }, login)).toBe('viewer');
    expect(roleFromClaims({ roles: ['sb-operator'] }, login)).toBeNull();
    expect(roleFromClaims({ groups: ['sb-op'] }, login)).toBeNull();
    expect(roleFromClaims({ roles: [{ name: 'sb-op' }] }, login)).toBeNull();
  });

  it('explains only its own error codes', () => {
    expect(signInErrorText('no_role', login)).toContain('Acme SSO account has no Switchboard role (sb-op or sb-view in its roles claim)');
    expect(signInErrorText('Call this number', login)).toBeNull();
    expect(signInErrorText(undefined, login)).toBeNull();
  });

  it('a viewer session needs the viewer token or sign-in through a provider; the signed-in name is kept', () => {
    const tokens = { operatorToken: 'op', viewerToken: undefined };
    const { value } = issueSession('viewer', { ...tokens, oidcLogin: login }, Date.now(), 'oidc:victor');
    expect(verifySession(value, { ...tokens, oidcLogin: login })).toMatchObject({ role: 'viewer', name: 'oidc:victor' });
    expect(verifySession(value, tokens)).toBeNull();
  });
});
