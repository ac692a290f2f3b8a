import ipaddr from 'ipaddr.js';

/** Why an address may not receive webhooks, in words a person configuring a URL understands. */
const RANGE_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (this includes cloud metadata endpoints)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  private: 'a private network address',
  uniqueLocal: 'a private (unique local) network address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  deprecatedSiteLocal: 'a site-local address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

export type AddressVerdict = { accepted: true } | { accepted: false; reason: string };

// IPv6 global unicast is 2000::/3; everything outside it is either special or unallocated.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * The one rule for where webhooks may be sent: the address must be global unicast. IPv4-mapped IPv6
 * addresses are judged by their IPv4 form; the deprecated IPv4-compatible form (::a.b.c.d), NAT64 and
 * other embedding forms are refused outright because they can reach IPv4 networks behind a translator.
 */
export function judgeAddress(text: string): AddressVerdict {
  const literal = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(literal)) return { accepted: false, reason: 'not an IP address' };
  let address = ipaddr.parse(literal);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      address = v6.toIPv4Address();
    } else if (v6.match(IPV4_COMPATIBLE)) {
      const range = v6.range();
      return {
        accepted: false,
        reason: RANGE_REASONS[range] ?? 'an IPv4-compatible IPv6 address',
      };
    }
  }
  const range = address.range();
  if (range !== 'unicast') {
    return { accepted: false, reason: RANGE_REASONS[range] ?? `a special-purpose address (${range})` };
  }
  if (address.kind() === 'ipv6' && !(address as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) {
    return { accepted: false, reason: 'not a global unicast address' };
  }
  return { accepted: true };
}

/** `localhost` and any name under it resolve to loopback by convention (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** An IP literal as it appears in a URL's hostname (IPv6 in brackets), without the brackets. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
