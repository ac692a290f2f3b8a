import { type Config, ConfigError } from './config.js';
import type { RelyingParty } from './http/ui/oidc-routes.js';

/**
 * The identity provider of LANEBOARD_OIDC_ISSUER, discovered at start: a server with single sign-on
 * configured does not start without it (ConfigError naming the issuer, exit 1). openid-client is loaded
 * only here, so a server without single sign-on never loads it. Null when single sign-on is off.
 */
export async function discoverIdentityProvider(config: Config): Promise<RelyingParty | null> {
  if (config.oidc === null) return null;
  const { OidcRelyingParty } = await import('./auth/oidc/oidc-client.js');
  try {
    return await OidcRelyingParty.discover(config.oidc);
  } catch (error) {
    throw new ConfigError('LANEBOARD_OIDC_ISSUER', error instanceof Error ? error.message : String(error));
  }
}
