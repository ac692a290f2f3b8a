import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { judgeAddress, unbracket } from '../lib/net/address-policy.js';
import type { HostResolver } from '../lib/net/url-guard.js';

/** The refusal of an address at connect time; its message is what the delivery record shows. */
export class BlockedAddressError extends Error {
  readonly code = 'LANEBOARD_BLOCKED_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** dns.lookup with every answer; errors (ENOTFOUND ...) propagate so the attempt records them. */
export const connectResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

function refuse(address: string, hostname: string): BlockedAddressError | null {
  const verdict = judgeAddress(address);
  if (verdict.accepted) return null;
  // The webhook's owner reads this error: a literal address they wrote may be named, but not what a
  // name resolved to (that would map the server's internal DNS for any API key).
  return new BlockedAddressError(
    unbracket(hostname) === address
      ? `Blocked: ${address} is ${verdict.reason}.`
      : `Blocked: ${hostname} resolves to a non-public address.`,
  );
}

/**
 * A lookup for net/tls.connect that answers only if every address of the name is allowed — the same
 * rule as at creation, applied to the answers this very connection will use, so a name that changes
 * its answers after the URL was checked (DNS rebinding) cannot reach a private address.
 */
export function guardedLookup(resolve: HostResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const entries = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((e) => e.family !== 0 && (wanted === 0 || e.family === wanted));
        const first = entries[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
          return;
        }
        if (!allowPrivate) {
          for (const entry of entries) {
            const blocked = refuse(entry.address, hostname);
            if (blocked) {
              callback(blocked, '', 0);
              return;
            }
          }
        }
        if (options.all) callback(null, entries);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface GuardedConnectorOptions {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** Replaces DNS (tests point names at 127.0.0.1 this way). */
  resolve?: HostResolver;
}

/**
 * undici connector that refuses private addresses: IP-literal hosts before connecting (net skips the
 * lookup for them), names through the guarded lookup, and — as a last line — the peer address of the
 * socket actually opened.
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const resolve = options.resolve ?? connectResolver;
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    ...(options.allowPrivate && !options.resolve
      ? {}
      : { lookup: guardedLookup(resolve, options.allowPrivate) }),
  });
  if (options.allowPrivate) return base;
  return (connectOptions, callback) => {
    const host = unbracket(connectOptions.hostname);
    if (isIP(host) !== 0) {
      const blocked = refuse(host, host);
      if (blocked) {
        callback(blocked, null);
        return;
      }
    }
    base(connectOptions, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('connection failed'), null);
        return;
      }
      const peer = socket.remoteAddress;
      const blocked =
        peer === undefined ? new BlockedAddressError('Blocked: no peer address.') : refuse(peer, host);
      if (blocked) {
        socket.destroy();
        callback(blocked, null);
        return;
      }
      callback(null, socket);
    });
  };
}
