import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configError } from './config-support.js';

const SSO = {
  LANEBOARD_PUBLIC_URL: 'https://board.example.com/',
  LANEBOARD_OIDC_ISSUER: 'https://id.example.com/realms/acme',
  LANEBOARD_OIDC_CLIENT_ID: 'laneboard',
  LANEBOARD_OIDC_CLIENT_SECRET: 'client-secret',
};

describe('single sign-on settings', () => {
  it('are off by default, password sign-in on', () => {
    expect(loadConfig({})).toMatchObject({ publicUrl: null, oidc: null });
  });

  it('derive the redirect URI from LANEBOARD_PUBLIC_URL and default to password sign-in on', () => {
    expect(loadConfig(SSO)).toMatchObject({
      publicUrl: 'https://board.example.com',
      oidc: {
        issuer: 'https://id.example.com/realms/acme',
        clientId: 'laneboard',
        clientSecret: 'client-secret',
        redirectUri: 'https://board.example.com/api/ui/oidc/callback',
        allowedDomains: [],
        passwordSignIn: true,
      },
    });
  });

  it('read allowed domains (lower-cased) and password sign-in off', () => {
    const config = loadConfig({
      ...SSO,
      LANEBOARD_OIDC_ALLOWED_DOMAINS: 'Example.com, corp.example',
      LANEBOARD_OIDC_PASSWORD_SIGNIN: 'false',
    });
    expect(config.oidc).toMatchObject({
      allowedDomains: ['example.com', 'corp.example'],
      passwordSignIn: false,
    });
  });

  it('accept an http issuer on a loopback address (development)', () => {
    expect(loadConfig({ ...SSO, LANEBOARD_OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
  });

  it.each([
    [
      { ...SSO, LANEBOARD_OIDC_CLIENT_ID: '' },
      'LANEBOARD_OIDC_CLIENT_ID',
      /required when LANEBOARD_OIDC_ISSUER/,
    ],
    [{ ...SSO, LANEBOARD_OIDC_CLIENT_SECRET: ' ' }, 'LANEBOARD_OIDC_CLIENT_SECRET', /required/],
    [{ ...SSO, LANEBOARD_PUBLIC_URL: '' }, 'LANEBOARD_PUBLIC_URL', /redirect URI/],
    [{ ...SSO, LANEBOARD_PUBLIC_URL: 'ftp://x' }, 'LANEBOARD_PUBLIC_URL', /http/],
    [{ ...SSO, LANEBOARD_OIDC_ISSUER: 'not a url' }, 'LANEBOARD_OIDC_ISSUER', /URL/],
    [{ ...SSO, LANEBOARD_OIDC_ISSUER: 'http://id.example.com' }, 'LANEBOARD_OIDC_ISSUER', /https/],
    [
      { ...SSO, LANEBOARD_OIDC_ALLOWED_DOMAINS: 'example.com,@bad' },
      'LANEBOARD_OIDC_ALLOWED_DOMAINS',
      /@bad/,
    ],
    [{ ...SSO, LANEBOARD_OIDC_PASSWORD_SIGNIN: 'maybe' }, 'LANEBOARD_OIDC_PASSWORD_SIGNIN', /true or false/],
    [{ LANEBOARD_OIDC_CLIENT_ID: 'laneboard' }, 'LANEBOARD_OIDC_CLIENT_ID', /LANEBOARD_OIDC_ISSUER is not/],
    [{ LANEBOARD_OIDC_PASSWORD_SIGNIN: 'false' }, 'LANEBOARD_OIDC_PASSWORD_SIGNIN', /ISSUER is not/],
  ])('refuse %j, naming %s', (env, variable, message) => {
    const error = configError(env as Record<string, string>);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
  });
});
