import * as client from 'openid-client';

/*
 * The OpenID Connect relying party: the protocol side of single sign-on, kept out of the domain and the
 * routes. openid-client does the checks (issuer, audience, signature, nonce, state, PKCE); this module
 * turns its answers into the identity the domain links, or a reason the sign-in page can explain.
 */

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Seconds to wait for the provider at each request (discovery included). */
  timeoutSeconds?: number;
}

/** What a sign-in must remember between its start and the provider's redirect back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Why the protocol part of a sign-in failed (never shown with the provider's own text). */
export type OidcFailureReason =
  | 'state'
  | 'code_rejected'
  | 'provider_refused'
  | 'provider_unavailable'
  | 'failed';

export type OidcOutcome =
  | { ok: true; identity: ProviderIdentity }
  | { ok: false; reason: OidcFailureReason; detail: string };

export class OidcDiscoveryError extends Error {
  constructor(issuer: string, cause: unknown) {
    super(`the identity provider at ${issuer} did not answer discovery (${describe(cause)})`);
    this.name = 'OidcDiscoveryError';
  }
}

const SCOPE = 'openid email profile';

export class OidcRelyingParty {
  private constructor(
    private readonly configuration: client.Configuration,
    private readonly redirectUri: string,
  ) {}

  /** Reads the provider's metadata (`.well-known/openid-configuration`); fails when it does not answer. */
  static async discover(settings: OidcSettings): Promise<OidcRelyingParty> {
    const issuer = new URL(settings.issuer);
    try {
      const configuration = await client.discovery(
        issuer,
        settings.clientId,
        undefined,
        client.ClientSecretBasic(settings.clientSecret),
        {
          timeout: settings.timeoutSeconds ?? 10,
          // http:// is accepted only for a loopback issuer (config.ts), for development and tests.
          ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      return new OidcRelyingParty(configuration, settings.redirectUri);
    } catch (error) {
      throw new OidcDiscoveryError(settings.issuer, error);
    }
  }

  /** A fresh state, nonce and PKCE verifier, and the provider's address to send the browser to. */
  async begin(): Promise<{ url: string; pending: PendingSignIn }> {
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(this.configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPE,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /**
   * Redeems the code of the provider's redirect (`query`: its query string) with the remembered checks,
   * and reads the verified claims; the userinfo endpoint fills in an email the ID token left out.
   */
  async complete(query: string, pending: PendingSignIn): Promise<OidcOutcome> {
    const currentUrl = new URL(this.redirectUri);
    currentUrl.search = query;
    try {
      const tokens = await client.authorizationCodeGrant(this.configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return { ok: false, reason: 'failed', detail: 'no ID token' };
      let source: Record<string, unknown> = claims;
      if (typeof claims.email !== 'string') {
        source = await client.fetchUserInfo(this.configuration, tokens.access_token, claims.sub);
      }
      return {
        ok: true,
        identity: {
          issuer: claims.iss,
          subject: claims.sub,
          email: typeof source.email === 'string' ? source.email : null,
          // Only a literal true counts: some providers send the string "true", which is not a promise.
          emailVerified: source.email_verified === true,
          name: typeof source.name === 'string' ? source.name : null,
        },
      };
    } catch (error) {
      return { ok: false, reason: reasonOf(error), detail: describe(error) };
    }
  }
}

function reasonOf(error: unknown): OidcFailureReason {
  if (error instanceof client.AuthorizationResponseError) return 'provider_refused';
  if (error instanceof client.ResponseBodyError) {
    return error.error === 'invalid_grant' ? 'code_rejected' : 'provider_refused';
  }
  if (error instanceof Error && /state/.test(error.message)) return 'state';
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return 'provider_unavailable';
  }
  return 'failed';
}

/** A one-line description for the log: the error's name, code and message, never tokens or bodies. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const oauthError = (error as { error?: unknown }).error;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return [
    error.name,
    typeof code === 'string' ? code : null,
    typeof oauthError === 'string' ? oauthError : null,
  ]
    .filter((part) => part !== null)
    .join(' ')
    .concat(`: ${error.message}${cause}`);
}
