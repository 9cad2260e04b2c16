/**
 * Who is really calling: the client address of a request that may have passed reverse proxies.
 * Free of Koa so that the HTTP app, the container proxy's upgrades and the realtime handshake can
 * share it. Built on node:net's BlockList (no dependency).
 *
 * X-Forwarded-For is only a claim: each proxy appends the address it saw, so only the entries
 * appended by proxies we trust are true. Walking from the right, the first address that is not a
 * trusted proxy is the client; everything to its left was written by the client and is ignored.
 */
import net from 'node:net'

/** The longest textual IP address (an IPv6 address with an embedded IPv4 one). */
export const MAX_IP_LENGTH = 45

export const DEFAULT_TRUSTED_PROXIES = 'loopback'

export interface ProxyTrust {
  /** Whether forwarded headers are honoured at all (TRUST_PROXY). */
  readonly enabled: boolean
  /** Whether `address` is one of the configured proxies (TRUSTED_PROXIES). */
  isTrusted(address: string): boolean
}

export interface ResolvedAddress {
  /** The client address: the right-most untrusted hop, or the peer. */
  ip: string
  /** The address of the TCP peer, normalised. */
  peer: string
  /** True when `ip` came from X-Forwarded-For rather than from the socket. */
  forwarded: boolean
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything else unchanged. */
export function normaliseIp(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address
}

/** A syntactically valid IPv4 or IPv6 address of at most MAX_IP_LENGTH characters, normalised; otherwise null. */
export function validIp(value: string): string | null {
  const trimmed = value.trim()
  if (trimmed.length === 0 || trimmed.length > MAX_IP_LENGTH || net.isIP(trimmed) === 0) return null
  return normaliseIp(trimmed)
}

export const isLoopback = (ip: string): boolean => ip === '' || ip === '::1' || (net.isIPv4(ip) && ip.startsWith('127.'))

/**
 * Parse TRUSTED_PROXIES: comma-separated IPs and CIDRs (`10.0.0.0/8`, `fd00::/8`), or `loopback`
 * (127.0.0.0/8 and ::1). Returns the problems found, so that the configuration can list them.
 */
export function parseTrustedProxies(spec: string): { list: net.BlockList; problems: string[] } {
  const list = new net.BlockList()
  const problems: string[] = []
  for (const raw of spec.split(',')) {
    const entry = raw.trim()
    if (entry === '') continue
    if (entry.toLowerCase() === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4')
      list.addAddress('::1', 'ipv6')
      continue
    }
    const [address = '', prefix, extra] = entry.split('/')
    const family = net.isIP(address)
    if (family === 0 || extra !== undefined) {
      problems.push(`"${entry}" is not an IP address or CIDR`)
      continue
    }
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (prefix === undefined) {
      list.addAddress(address, type)
      continue
    }
    const bits = Number(prefix)
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      problems.push(`"${entry}" has an invalid prefix length`)
      continue
    }
    list.addSubnet(address, bits, type)
  }
  return { list, problems }
}

export function proxyTrust(enabled: boolean, trustedProxies: string): ProxyTrust {
  const { list, problems } = parseTrustedProxies(trustedProxies)
  if (problems.length) throw new Error(`TRUSTED_PROXIES: ${problems.join('; ')}`)
  return {
    enabled,
    isTrusted: (address) => {
      const ip = validIp(address)
      return ip !== null && list.check(ip, net.isIPv4(ip) ? 'ipv4' : 'ipv6')
    },
  }
}

const trusts = new WeakMap<object, ProxyTrust>()

/** The proxy trust of a configuration, made once per configuration object. */
export function proxyTrustOf(config: { readonly TRUST_PROXY: boolean; readonly TRUSTED_PROXIES: string }): ProxyTrust {
  let trust = trusts.get(config)
  if (!trust) {
    trust = proxyTrust(config.TRUST_PROXY, config.TRUSTED_PROXIES)
    trusts.set(config, trust)
  }
  return trust
}

/** One X-Forwarded-For entry without a port (`1.2.3.4:5678`, `[::1]:80`) or quotes. */
function forwardedEntry(entry: string): string {
  const value = entry.trim().replace(/^"|"$/g, '')
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) return bracketed[1]!
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value)
  return v4WithPort ? v4WithPort[1]! : value
}

/**
 * The client address of a request whose TCP peer is `peerAddress` and whose X-Forwarded-For is
 * `forwardedFor` (possibly several header lines). The header counts only when proxies are trusted
 * and the peer is one of them; then the right-most hop that is not a trusted proxy is the client.
 * A hop that is not a valid address ends the walk and the peer is used: nothing unvalidated is
 * ever returned.
 */
export function resolveClientAddress(peerAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust): ResolvedAddress {
  const peer = validIp(peerAddress ?? '') ?? ''
  const direct = { ip: peer, peer, forwarded: false }
  if (!trust.enabled || !forwardedFor || !trust.isTrusted(peer)) return direct
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',')
  let client: string | null = null
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = validIp(forwardedEntry(hops[i]!))
    if (hop === null) return direct
    client = hop
    if (!trust.isTrusted(hop)) break
  }
  return client === null ? direct : { ip: client, peer, forwarded: true }
}
