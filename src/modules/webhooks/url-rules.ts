// Where a webhook may be sent (§11): `https`, no credentials, and no host that is not globally
// reachable by the IANA IPv4 and IPv6 special-purpose registries, in any spelling a WHATWG URL
// parser accepts. `new URL()` already turns decimal, hex, octal and short IPv4 forms into the dotted
// quad, so the address is judged after parsing, with ipaddr.js's registry of special ranges rather
// than hand-written patterns. Hosts in WEBHOOK_ALLOWED_HOSTS skip these rules (and may use http), for
// receivers on a developer's own machine. A name that resolves to a private address later (DNS
// rebinding) cannot be caught here: Workers do not expose name resolution.
import ipaddr from 'ipaddr.js';

// Named ranges of ipaddr.js that the registries mark globally reachable; any other named range is not.
const GLOBAL_V4 = new Set(['unicast', 'amt', 'as112']);
const GLOBAL_V6 = new Set(['unicast', 'amt', 'as112v6', 'orchid2', 'droneRemoteIdProtocolEntityTags']);
// The well-known NAT64 prefix carries an IPv4 address in its last 32 bits: judged by that address.
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

function ipv4IsGlobal(address: ipaddr.IPv4): boolean {
  return GLOBAL_V4.has(address.range());
}

function ipv6IsGlobal(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return ipv4IsGlobal(address.toIPv4Address());
  const parts = address.parts;
  // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 forms: the embedded IPv4 address decides.
  const embedded = ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4;
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) return ipv4IsGlobal(embedded);
  if (address.match(NAT64)) return ipv4IsGlobal(embedded);
  return GLOBAL_V6.has(address.range());
}

/** Why `url` may not receive webhooks, or null when it may. */
export function webhookUrlProblem(url: string, allowedHosts: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Not a valid URL.';
  }
  if (parsed.username || parsed.password) return 'A webhook URL may not carry credentials.';
  const host = parsed.hostname.toLowerCase();
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (allowedHosts.includes(host) || allowedHosts.includes(bare)) {
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? null : 'Use an https URL.';
  }
  if (parsed.protocol !== 'https:') return 'Use an https URL.';
  const name = bare.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'A webhook cannot go to localhost.';
  if (ipaddr.IPv4.isValidFourPartDecimal(name)) {
    return ipv4IsGlobal(ipaddr.IPv4.parse(name)) ? null : 'A webhook cannot go to an address that is not globally reachable.';
  }
  if (ipaddr.IPv6.isValid(bare)) {
    return ipv6IsGlobal(ipaddr.IPv6.parse(bare)) ? null : 'A webhook cannot go to an address that is not globally reachable.';
  }
  if (!name.includes('.')) return 'Use a fully qualified host name.';
  return null;
}
