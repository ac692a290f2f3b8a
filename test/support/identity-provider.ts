import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export const CLIENT_ID = 'laneboard-test';
export const CLIENT_SECRET = 'laneboard-test-secret-0123456789';

/** What the identity provider says about an account; the test sets it before each sign-in. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface IdentityProvider {
  issuer: string;
  /** Accounts by login (the provider's subject); the dev login page accepts any password. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider, development interactions: a login form that takes any
 * login and password) on 127.0.0.1, with one confidential client whose redirect URIs are the Laneboard servers'.
 * Consent is granted without a page, so a sign-in is: the login form, then back to Laneboard.
 */
export async function startIdentityProvider(redirectUris: string[]): Promise<IdentityProvider> {
  const accounts = new Map<string, TestAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['identity-provider-test-cookie-key'] },
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
