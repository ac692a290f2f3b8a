import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { isLocalhostName, judgeAddress, unbracket } from './address-policy.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a host name to every address it has; an empty list means the name does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  resolve?: HostResolver;
}

/**
 * The guard's answer: the URL normalised, or why it is refused, in words for the person who sent it.
 * A refusal never names the address a host name resolves to (that would map internal DNS for callers).
 */
export type UrlVerdict = { accepted: true; url: string } | { accepted: false; reason: string };

const RESOLVE_TIMEOUT_MS = 5000;

/** dns.lookup (the system resolver, like the connection itself uses), every answer, time-limited. */
export const systemResolver: HostResolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS);
  });
  try {
    const answers = lookup(hostname, { all: true, verbatim: true }).then(
      (found) => found.map((a) => a.address),
      // A name that does not resolve now is accepted: its deliveries fail and are retried.
      () => [] as string[],
    );
    return await Promise.race([answers, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

const refuse = (reason: string): UrlVerdict => ({ accepted: false, reason });

/**
 * Judges a webhook URL against the contract's rules; an accepted URL comes back normalised (WHATWG
 * serialisation, which also rewrites every IPv4 spelling — decimal, octal, hex, short — to dotted
 * decimal).
 */
export async function judgeWebhookUrl(input: string, policy: UrlPolicy): Promise<UrlVerdict> {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) {
    return refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long.`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('must be an absolute URL such as https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    // Name the schemes this server takes: an ftp:// URL on a server that allows http:// is told so.
    if (policy.allowHttp) return refuse('must use http:// or https://.');
    return refuse(
      url.protocol === 'http:'
        ? 'must use https:// (plain http:// is not accepted by this server).'
        : 'must use https://.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('must not contain a user name or password.');
  }
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) {
    return refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long.`);
  }
  if (!policy.allowPrivate) {
    const reason = await judgeHost(url.hostname, policy.resolve ?? systemResolver);
    if (reason) return refuse(reason);
  }
  return { accepted: true, url: url.href };
}

/** Why the host may not receive webhooks, or null when it may. */
async function judgeHost(hostname: string, resolve: HostResolver): Promise<string | null> {
  const host = unbracket(hostname);
  if (ipaddr.isValid(host)) {
    // The caller wrote this address: naming its kind tells them nothing new.
    const verdict = judgeAddress(host);
    return verdict.accepted ? null : `must point to a public address: ${host} is ${verdict.reason}.`;
  }
  if (isLocalhostName(host))
    return `must point to a public address: ${host} is a name for the local machine.`;
  for (const address of await resolve(host)) {
    if (!judgeAddress(address).accepted) {
      return `must point to a public address: ${host} resolves to a non-public address.`;
    }
  }
  return null;
}
