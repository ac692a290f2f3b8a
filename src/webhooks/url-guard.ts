import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { invalid } from '../domain/errors.js';
import { isLocalhostName, judgeAddress, unbracket } from './address-policy.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a host name to every address it has; an empty list means the name does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  resolve?: HostResolver;
}

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

/**
 * Checks a webhook URL against the contract's rules and returns it normalised (WHATWG serialisation,
 * which also rewrites every IPv4 spelling — decimal, octal, hex, short — to dotted decimal).
 * Throws validation_error naming `url` and the reason.
 */
export async function checkWebhookUrl(input: string, policy: UrlPolicy): Promise<string> {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalid('url', `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long.`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('url', 'must be an absolute URL such as https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw invalid(
      'url',
      url.protocol === 'http:'
        ? 'must use https:// (plain http:// is not accepted by this server).'
        : 'must use https://.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('url', 'must not contain a user name or password.');
  }
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalid('url', `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long.`);
  }
  if (!policy.allowPrivate) await checkHost(url.hostname, policy.resolve ?? systemResolver);
  return url.href;
}

async function checkHost(hostname: string, resolve: HostResolver): Promise<void> {
  const host = unbracket(hostname);
  if (ipaddr.isValid(host)) {
    const verdict = judgeAddress(host);
    if (!verdict.accepted) {
      throw invalid('url', `must point to a public address: ${host} is ${verdict.reason}.`);
    }
    return;
  }
  if (isLocalhostName(host)) {
    throw invalid('url', `must point to a public address: ${host} is a name for the local machine.`);
  }
  for (const address of await resolve(host)) {
    const verdict = judgeAddress(address);
    if (!verdict.accepted) {
      throw invalid(
        'url',
        `must point to a public address: ${host} resolves to ${address}, ${verdict.reason}.`,
      );
    }
  }
}
