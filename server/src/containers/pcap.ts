/**
 * Traffic capture of proxied connections as classic pcap files (LINKTYPE_ETHERNET, microsecond
 * timestamps), readable by Wireshark and tshark.
 *
 * The proxy sees a byte stream, not packets, so the TCP conversation is synthesized: a
 * three-way handshake, one PSH/ACK segment per chunk (split at 16 KiB) with consistent
 * sequence and acknowledgement numbers, and a FIN exchange at the end. The client side is the
 * player's address and port as the platform saw them; the server side is the container's
 * address and port. IPv4 frames unless either side is IPv6 (then IPv6 frames, the IPv4 side
 * written as an IPv4-mapped address). Checksums are computed.
 *
 * Metadata (docs/compatibility.md#group-proxy: challenge title and id, team name and id, container id, flag) is
 * the first packet of every file: a UDP datagram 0.0.0.0:0 → 255.255.255.255:65535 whose payload
 * is the metadata as UTF-8 JSON (`udp.port == 65535` in Wireshark shows it; the TCP stream
 * follows). A UDP packet survives every pcap tool, unlike pcapng comments.
 */
import fs from 'node:fs'
import path from 'node:path'
import net from 'node:net'
import { randomInt } from 'node:crypto'

export interface CaptureMetadata {
  challenge: string
  challengeId: number
  team: string
  teamId: number
  participationId: number
  containerId: string
  flag: string | null
  client: string
  time: string
}

const SEGMENT_MAX = 16 * 1024
const TCP_FIN = 0x01
const TCP_SYN = 0x02
const TCP_PSH = 0x08
const TCP_ACK = 0x10

function checksum(...buffers: Buffer[]): number {
  let sum = 0
  for (const buf of buffers) {
    for (let i = 0; i + 1 < buf.length; i += 2) sum += buf.readUInt16BE(i)
    if (buf.length % 2) sum += buf[buf.length - 1]! << 8
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16)
  return ~sum & 0xffff
}

interface Endpoint {
  ip: string
  port: number
}

function ipv4Bytes(ip: string): Buffer {
  return Buffer.from(ip.split('.').map((p) => Number(p) & 0xff))
}

function ipv6Bytes(ip: string): Buffer {
  let address = ip
  if (net.isIPv4(address)) address = `::ffff:${address}`
  const out = Buffer.alloc(16)
  const tail = address.match(/(\d+\.\d+\.\d+\.\d+)$/)
  let head = address
  if (tail) {
    ipv4Bytes(tail[1]!).copy(out, 12)
    head = address.slice(0, -tail[1]!.length) + '0:0'
  }
  const [left, right = ''] = head.split('::')
  const l = left ? left.split(':') : []
  const r = right ? right.split(':') : []
  const groups = head.includes('::') ? [...l, ...Array(8 - l.length - r.length).fill('0'), ...r] : l
  const words = groups.map((g) => parseInt(g || '0', 16) & 0xffff)
  for (let i = 0; i < 8; i++) {
    if (tail && i >= 6) break
    out.writeUInt16BE(words[i] ?? 0, i * 2)
  }
  return out
}

const normalizeIp = (ip: string): string => {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  return bare.startsWith('::ffff:') && net.isIPv4(bare.slice(7)) ? bare.slice(7) : bare
}

/** A usable address for a frame: host names and empty values become a documentation address. */
const frameIp = (ip: string, fallback: string): string => {
  const n = normalizeIp(ip)
  return net.isIP(n) ? n : fallback
}

export class PcapWriter {
  private readonly stream: fs.WriteStream
  private readonly client: Endpoint
  private readonly server: Endpoint
  private readonly v6: boolean
  private clientSeq = randomInt(1, 0x7fffffff)
  private serverSeq = randomInt(1, 0x7fffffff)
  private ipId = randomInt(0, 0xffff)
  private closed = false
  private onClosed: (() => Promise<void>) | null = null

  private constructor(file: string, client: Endpoint, server: Endpoint) {
    this.stream = fs.createWriteStream(file, { flags: 'wx' })
    this.stream.on('error', () => {
      this.closed = true
    })
    this.client = { ip: frameIp(client.ip, '192.0.2.1'), port: client.port || 1 }
    this.server = { ip: frameIp(server.ip, '192.0.2.2'), port: server.port || 1 }
    this.v6 = net.isIPv6(this.client.ip) || net.isIPv6(this.server.ip)
  }

  /** Create the file (and its directories), write the header, the metadata and the handshake. */
  /** `onClosed` runs once the file is complete (the capture store takes it over). */
  static async open(file: string, client: Endpoint, server: Endpoint, metadata: CaptureMetadata, onClosed?: () => Promise<void>): Promise<PcapWriter> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true })
    const writer = new PcapWriter(file, client, server)
    writer.onClosed = onClosed ?? null
    writer.globalHeader()
    writer.metadata(metadata)
    writer.handshake()
    return writer
  }

  private globalHeader(): void {
    const h = Buffer.alloc(24)
    h.writeUInt32LE(0xa1b2c3d4, 0)
    h.writeUInt16LE(2, 4)
    h.writeUInt16LE(4, 6)
    h.writeInt32LE(0, 8)
    h.writeUInt32LE(0, 12)
    h.writeUInt32LE(262144, 16)
    h.writeUInt32LE(1, 20) // LINKTYPE_ETHERNET
    this.stream.write(h)
  }

  /** Microseconds since the epoch: the wall clock at open plus a monotonic clock since. */
  private readonly wallMicros = BigInt(Date.now()) * 1000n
  private readonly hrStart = process.hrtime.bigint()
  private lastMicros = 0n

  private record(frame: Buffer): void {
    if (this.closed) return
    let micros = this.wallMicros + (process.hrtime.bigint() - this.hrStart) / 1000n
    if (micros <= this.lastMicros) micros = this.lastMicros + 1n
    this.lastMicros = micros
    const h = Buffer.alloc(16)
    h.writeUInt32LE(Number(micros / 1_000_000n), 0)
    h.writeUInt32LE(Number(micros % 1_000_000n), 4)
    h.writeUInt32LE(frame.length, 8)
    h.writeUInt32LE(frame.length, 12)
    this.stream.write(Buffer.concat([h, frame]))
  }

  private ethernet(payload: Buffer, fromClient: boolean): Buffer {
    const e = Buffer.alloc(14)
    const clientMac = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01]
    const serverMac = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02]
    Buffer.from(fromClient ? serverMac : clientMac).copy(e, 0)
    Buffer.from(fromClient ? clientMac : serverMac).copy(e, 6)
    e.writeUInt16BE(this.v6 ? 0x86dd : 0x0800, 12)
    return Buffer.concat([e, payload])
  }

  private ip(protocol: number, src: string, dst: string, payload: Buffer, checksumAt: number | null): Buffer {
    if (this.v6) {
      const h = Buffer.alloc(40)
      h.writeUInt32BE(0x60000000, 0)
      h.writeUInt16BE(payload.length, 4)
      h[6] = protocol
      h[7] = 64
      const s = ipv6Bytes(src)
      const d = ipv6Bytes(dst)
      s.copy(h, 8)
      d.copy(h, 24)
      if (checksumAt !== null) {
        const pseudo = Buffer.alloc(40)
        s.copy(pseudo, 0)
        d.copy(pseudo, 16)
        pseudo.writeUInt32BE(payload.length, 32)
        pseudo[39] = protocol
        payload.writeUInt16BE(0, checksumAt)
        payload.writeUInt16BE(checksum(pseudo, payload) || 0xffff, checksumAt)
      }
      return Buffer.concat([h, payload])
    }
    const h = Buffer.alloc(20)
    h[0] = 0x45
    h.writeUInt16BE(20 + payload.length, 2)
    h.writeUInt16BE(this.ipId++ & 0xffff, 4)
    h.writeUInt16BE(0x4000, 6) // don't fragment
    h[8] = 64
    h[9] = protocol
    const s = ipv4Bytes(src)
    const d = ipv4Bytes(dst)
    s.copy(h, 12)
    d.copy(h, 16)
    h.writeUInt16BE(checksum(h), 10)
    if (checksumAt !== null) {
      const pseudo = Buffer.alloc(12)
      s.copy(pseudo, 0)
      d.copy(pseudo, 4)
      pseudo[9] = protocol
      pseudo.writeUInt16BE(payload.length, 10)
      payload.writeUInt16BE(0, checksumAt)
      payload.writeUInt16BE(checksum(pseudo, payload) || 0xffff, checksumAt)
    }
    return Buffer.concat([h, payload])
  }

  private metadata(metadata: CaptureMetadata): void {
    const data = Buffer.from(JSON.stringify(metadata), 'utf8')
    const udp = Buffer.alloc(8)
    udp.writeUInt16BE(0, 0)
    udp.writeUInt16BE(65535, 2)
    udp.writeUInt16BE(8 + data.length, 4)
    const payload = Buffer.concat([udp, data])
    const src = this.v6 ? '::' : '0.0.0.0'
    const dst = this.v6 ? 'ff02::1' : '255.255.255.255'
    const frame = this.ip(17, src, dst, payload, 6)
    const e = Buffer.alloc(14)
    e.fill(0xff, 0, 6)
    Buffer.from([0x02, 0, 0, 0, 0, 0]).copy(e, 6)
    e.writeUInt16BE(this.v6 ? 0x86dd : 0x0800, 12)
    this.record(Buffer.concat([e, frame]))
  }

  private segment(fromClient: boolean, flags: number, data: Buffer = Buffer.alloc(0)): void {
    const src = fromClient ? this.client : this.server
    const dst = fromClient ? this.server : this.client
    const seq = fromClient ? this.clientSeq : this.serverSeq
    const ack = fromClient ? this.serverSeq : this.clientSeq
    const tcp = Buffer.alloc(20)
    tcp.writeUInt16BE(src.port, 0)
    tcp.writeUInt16BE(dst.port, 2)
    tcp.writeUInt32BE(seq >>> 0, 4)
    tcp.writeUInt32BE(flags & TCP_ACK ? ack >>> 0 : 0, 8)
    tcp[12] = 5 << 4
    tcp[13] = flags
    tcp.writeUInt16BE(65535, 14)
    const payload = Buffer.concat([tcp, data])
    this.record(this.ethernet(this.ip(6, src.ip, dst.ip, payload, 16), fromClient))
    const advance = data.length + (flags & (TCP_SYN | TCP_FIN) ? 1 : 0)
    if (fromClient) this.clientSeq = (this.clientSeq + advance) % 0x100000000
    else this.serverSeq = (this.serverSeq + advance) % 0x100000000
  }

  private handshake(): void {
    this.segment(true, TCP_SYN)
    this.segment(false, TCP_SYN | TCP_ACK)
    this.segment(true, TCP_ACK)
  }

  /** Record bytes sent by the player (fromClient) or by the container. */
  data(fromClient: boolean, bytes: Buffer): void {
    if (this.closed) return
    for (let offset = 0; offset < bytes.length; offset += SEGMENT_MAX) {
      this.segment(fromClient, TCP_PSH | TCP_ACK, bytes.subarray(offset, offset + SEGMENT_MAX))
      this.segment(!fromClient, TCP_ACK)
    }
  }

  /** Write the FIN exchange and close the file. */
  async close(closedByClient = true): Promise<void> {
    if (this.closed) return
    this.segment(closedByClient, TCP_FIN | TCP_ACK)
    this.segment(!closedByClient, TCP_FIN | TCP_ACK)
    this.segment(closedByClient, TCP_ACK)
    this.closed = true
    await new Promise<void>((resolve) => this.stream.end(() => resolve()))
    await this.onClosed?.()
  }
}
