import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { checkWebhookUrl, type UrlPolicy } from '../../src/domain/webhooks/webhook-url.js';
import { isLocalhostName, judgeAddress } from '../../src/lib/net/address-policy.js';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';
const strict: UrlPolicy = { allowHttp: false, allowPrivate: false, resolve: async () => [PUBLIC_V4] };

async function rejection(url: string, policy: UrlPolicy = strict): Promise<string> {
  try {
    await checkWebhookUrl(url, policy);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return (error as DomainError).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    // ipaddr.js reads this dotted tail as IPv4-mapped; refused as loopback either way.
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::a00:1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b:1::a00:1', 'NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2001:db8::1', 'reserved'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    const verdict = judgeAddress(address);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.reason).toContain(reason);
  });

  it.each([PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(judgeAddress(address)).toEqual({ accepted: true });
  });

  it('refuses IPv6 outside global unicast 2000::/3', () => {
    expect(judgeAddress('4000::1').accepted).toBe(false);
  });

  it('knows localhost names', () => {
    expect(isLocalhostName('localhost')).toBe(true);
    expect(isLocalhostName('LOCALHOST.')).toBe(true);
    expect(isLocalhostName('a.localhost')).toBe(true);
    expect(isLocalhostName('localhost.example.com')).toBe(false);
    expect(isLocalhostName('mylocalhost')).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts a public https URL and returns it normalised', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/in?x=1', strict)).toBe(
      'https://hooks.example.com/in?x=1',
    );
    expect(await checkWebhookUrl('HTTPS://Hooks.Example.COM', strict)).toBe('https://hooks.example.com/');
    expect(await checkWebhookUrl(`https://[${PUBLIC_V6}]:8443/x`, strict)).toBe(
      `https://[${PUBLIC_V6}]:8443/x`,
    );
    expect(await checkWebhookUrl(`https://${PUBLIC_V4}/`, strict)).toBe(`https://${PUBLIC_V4}/`);
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://10.0.0.8/', 'private'],
    ['https://192.168.0.10/', 'private'],
    ['https://172.20.1.1/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://100.100.100.200/', 'carrier-grade NAT'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'NAT64'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fd00::1]/', 'unique local'],
    // Other IPv4 spellings: WHATWG URL parsing turns each into dotted decimal before the check.
    ['https://2130706433/', 'loopback'],
    ['https://0x7f000001/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://0x7f.0.0.1/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://127.0.1/', 'loopback'],
    ['https://0/', 'unspecified'],
    ['https://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    ['https://3232235521/', 'private'],
    ['https://localhost/', 'local machine'],
    ['https://LOCALHOST:8443/', 'local machine'],
    ['https://a.localhost/', 'local machine'],
    ['https://localhost./', 'local machine'],
  ])('rejects %s', async (url, reason) => {
    const message = await rejection(url);
    expect(message).toContain('`url`');
    expect(message).toContain(reason);
  });

  it('rejects a name if ANY of its addresses is not public, without saying which address', async () => {
    const policy: UrlPolicy = { ...strict, resolve: async () => [PUBLIC_V4, '10.0.0.5'] };
    const message = await rejection('https://mixed.example.com/', policy);
    expect(message).toContain('mixed.example.com resolves to a non-public address');
    // Naming the answer would let any API key map the server's internal DNS.
    expect(message).not.toContain('10.0.0.5');
    expect(message).not.toContain('private');
    const mapped: UrlPolicy = { ...strict, resolve: async () => ['::ffff:127.0.0.1'] };
    const sneaky = await rejection('https://sneaky.example.com/', mapped);
    expect(sneaky).toContain('resolves to a non-public address');
    expect(sneaky).not.toContain('127.0.0.1');
  });

  it('accepts a name that does not resolve (its deliveries fail and retry)', async () => {
    const policy: UrlPolicy = { ...strict, resolve: async () => [] };
    expect(await checkWebhookUrl('https://not-yet.example.com/', policy)).toBe(
      'https://not-yet.example.com/',
    );
  });

  it('uses the system resolver by default: an unresolvable name is accepted', async () => {
    const policy: UrlPolicy = { allowHttp: false, allowPrivate: false };
    expect(await checkWebhookUrl('https://no-such-host.invalid/', policy)).toBe(
      'https://no-such-host.invalid/',
    );
  });

  it('requires https unless http is allowed', async () => {
    expect(await rejection('http://hooks.example.com/')).toContain('https://');
    expect(await checkWebhookUrl('http://hooks.example.com/', { ...strict, allowHttp: true })).toBe(
      'http://hooks.example.com/',
    );
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ws://x.example.com/',
    ]) {
      expect(await rejection(url, { ...strict, allowHttp: true })).toBe(
        '`url` must use http:// or https://.',
      );
      expect(await rejection(url)).toBe('`url` must use https://.');
    }
  });

  it('rejects user names and passwords in the URL', async () => {
    expect(await rejection('https://user:pass@hooks.example.com/')).toContain('user name or password');
    expect(await rejection('https://user@hooks.example.com/')).toContain('user name or password');
  });

  it('rejects relative, malformed and over-long URLs', async () => {
    expect(await rejection('/hooks')).toContain('absolute URL');
    expect(await rejection('https://')).toContain('absolute URL');
    expect(await rejection(`https://hooks.example.com/${'a'.repeat(2048)}`)).toContain('2048');
    const longest = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
    expect(await checkWebhookUrl(longest, strict)).toBe(longest);
  });

  it('skips every address check with allowPrivate', async () => {
    const open: UrlPolicy = { allowHttp: true, allowPrivate: true, resolve: async () => ['127.0.0.1'] };
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'https://[::1]/',
      'http://2130706433/',
    ]) {
      await expect(checkWebhookUrl(url, open)).resolves.toBeTypeOf('string');
    }
    // The scheme and credentials rules still hold.
    expect(await rejection('https://u:p@127.0.0.1/', open)).toContain('user name');
  });
});
