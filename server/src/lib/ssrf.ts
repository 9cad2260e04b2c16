/**
 * Outgoing requests to addresses an admin typed (docs/webhooks.md#ssrf): only http(s), and only to
 * public unicast addresses unless private ones are explicitly allowed. The host is resolved here
 * and the connection is made to the address that was checked (`lookup` below), so a name that
 * resolves to a public address when checked and to 127.0.0.1 a moment later (DNS rebinding)
 * never reaches the private one.
 */
import dns from 'node:dns/promises'
import net from 'node:net'
import type { LookupFunction } from 'node:net'

const v4 = new net.BlockList()
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) v4.addSubnet(prefix, bits, 'ipv4')

const v6 = new net.BlockList()
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and ORCHID included)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) v6.addSubnet(prefix, bits, 'ipv6')

/** The 16 bytes of an IPv6 address. */
function ipv6Bytes(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string | undefined]
  const groups = (part: string | undefined) => {
    if (!part) return [] as number[]
    const out: number[] = []
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number]
        out.push((a << 8) | b, (c << 8) | d)
      } else out.push(parseInt(g, 16))
    }
    return out
  }
  const h = groups(head)
  const t = groups(tail)
  const words = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t]
  return words.flatMap((w) => [w >> 8, w & 0xff])
}

/** The IPv4 address an IPv6 address carries: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address)
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0)
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.')
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return b.slice(12).join('.')
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join('.')
  return null
}

/** Why `address` (an IP literal) is not a public unicast address, or null when it is. */
export function forbiddenAddress(address: string): string | null {
  const family = net.isIP(address)
  if (family === 4) return v4.check(address, 'ipv4') ? `${address} is a loopback, private, link-local, multicast or reserved address` : null
  if (family !== 6) return `${address} is not an IP address`
  const inner = embeddedIpv4(address)
  if (inner !== null) return forbiddenAddress(inner) && `${address} carries ${inner}, ${forbiddenAddress(inner)!.replace(/^\S+ /, '')}`
  return v6.check(address, 'ipv6') ? `${address} is a loopback, unique-local, link-local, multicast or reserved address` : null
}

/** A target the caller may connect to: where the checked address is, and a lookup that returns only it. */
export interface ResolvedTarget {
  url: URL
  address: string
  family: 4 | 6
  lookup: LookupFunction
}

export class TargetRefused extends Error {}

/** `url` must be http(s) without credentials (a parse error, another scheme, user:pass@ → TargetRefused). */
export function parseTargetUrl(value: string): URL {
  if (!URL.canParse(value)) throw new TargetRefused('not a URL')
  const url = new URL(value)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefused('only http and https targets are allowed')
  if (url.username || url.password) throw new TargetRefused('credentials in the URL are not allowed')
  return url
}

/**
 * Resolve `url`'s host and check every address it resolves to (one forbidden address refuses the
 * target: which one a connection would pick is not ours to choose). `allowPrivate` skips the
 * address check, never the scheme check.
 */
export async function resolveTarget(value: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const url = parseTargetUrl(value)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: { address: string; family: number }[]
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }]
  else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true })
    } catch (err) {
      throw new TargetRefused(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`)
  if (!allowPrivate) {
    for (const a of addresses) {
      const reason = forbiddenAddress(a.address)
      if (reason) throw new TargetRefused(host === a.address ? reason : `${host} resolves to ${reason}`)
    }
  }
  const { address, family } = addresses[0]!
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (err: null, list: { address: string; family: number }[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
  return { url, address, family: family as 4 | 6, lookup }
}
