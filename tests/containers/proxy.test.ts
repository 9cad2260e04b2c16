/**
 * The platform proxy and traffic capture on the real Docker engine (docs/compatibility.md#group-proxy, #group-game-monitors): with CONTAINER_PORT_MAPPING=proxy a container's entry is its GUID, `ws
 * /api/proxy/{id}` relays a TCP exchange (through the published 127.0.0.1 port), every
 * connection of a capture-enabled challenge becomes a pcap file (parsed here), and monitors
 * list and download the captures.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { z } from 'zod'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { ChallengeTrafficModel, FileRecord, TeamTrafficModel } from '@flagwave/shared/schemas/admin'
import { requireDocker } from '../support/docker.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { closeAllSockets, connect } from '../support/sockets.js'
import { unzip } from '../support/zip.js'
import type { ApiClient } from '../support/client.js'
import { banner, containerPath, expectError, setup, startDockerServer, waitFor, type DockerServer, type Setup } from './helpers.js'
import { Container } from '../../server/src/entities/Container.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { PROXY_CONNECTION_LIMIT } from '../../server/src/containers/proxy.js'

const available = await requireDocker()

let ds: DockerServer
let admin: ApiClient
let monitor: TestUser
let user: TestUser
const em = () => ds.server.services.orm.em.fork()
const wsUrl = (p: string) => ds.server.url.replace(/^http/, 'ws') + p

interface Session {
  ws: WebSocket
  received: Buffer[]
  text(): string
  closed: Promise<{ code: number; frames: { binary: boolean }[] }>
}

/** Open a proxy WebSocket; resolves on open, rejects with the HTTP status and body on refusal. */
function openProxy(p: string): Promise<Session> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(p))
    const received: Buffer[] = []
    const frames: { binary: boolean }[] = []
    ws.on('message', (data, isBinary) => {
      frames.push({ binary: isBinary })
      received.push(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer))
    })
    const closed = new Promise<{ code: number; frames: { binary: boolean }[] }>((r) => ws.on('close', (code) => r({ code, frames })))
    ws.on('open', () => resolve({ ws, received, text: () => Buffer.concat(received).toString('utf8'), closed }))
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString('utf8')))
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body: body ? JSON.parse(body) : null })))
    })
    ws.on('error', (err) => reject(err))
  })
}

async function refusal(p: string): Promise<{ status: number; body: unknown }> {
  try {
    const s = await openProxy(p)
    s.ws.close()
    throw new Error('the upgrade was accepted')
  } catch (err) {
    const e = err as { status?: number; body?: unknown }
    if (e.status === undefined) throw err
    return { status: e.status, body: e.body }
  }
}

const until = async (s: Session, re: RegExp) => waitFor(`proxy text ${re}`, async () => re.test(s.text()), 10_000)

// ---- a pcap reader (enough for our synthesized Ethernet/IPv4/TCP+UDP frames) ------------------

interface Packet {
  ts: number
  proto: 'tcp' | 'udp'
  src: string
  dst: string
  sport: number
  dport: number
  flags: number
  seq: number
  ack: number
  payload: Buffer
}

function readPcap(file: Buffer): { linktype: number; packets: Packet[] } {
  expect(file.readUInt32LE(0)).toBe(0xa1b2c3d4)
  expect([file.readUInt16LE(4), file.readUInt16LE(6)]).toEqual([2, 4])
  const linktype = file.readUInt32LE(20)
  const packets: Packet[] = []
  let off = 24
  while (off + 16 <= file.length) {
    const ts = file.readUInt32LE(off) + file.readUInt32LE(off + 4) / 1e6
    const incl = file.readUInt32LE(off + 8)
    const frame = file.subarray(off + 16, off + 16 + incl)
    off += 16 + incl
    expect(frame.readUInt16BE(12)).toBe(0x0800) // IPv4
    const ip = frame.subarray(14)
    const ihl = (ip[0]! & 0x0f) * 4
    const total = ip.readUInt16BE(2)
    const proto = ip[9]
    const src = [...ip.subarray(12, 16)].join('.')
    const dst = [...ip.subarray(16, 20)].join('.')
    const l4 = ip.subarray(ihl, total)
    if (proto === 17) {
      packets.push({ ts, proto: 'udp', src, dst, sport: l4.readUInt16BE(0), dport: l4.readUInt16BE(2), flags: 0, seq: 0, ack: 0, payload: l4.subarray(8) })
    } else {
      expect(proto).toBe(6)
      const dataOff = (l4[12]! >> 4) * 4
      packets.push({ ts, proto: 'tcp', src, dst, sport: l4.readUInt16BE(0), dport: l4.readUInt16BE(2), flags: l4[13]!, seq: l4.readUInt32BE(4), ack: l4.readUInt32BE(8), payload: l4.subarray(dataOff) })
    }
  }
  expect(off).toBe(file.length)
  return { linktype, packets }
}

async function startProxied(options: Parameters<typeof setup>[1] = {}): Promise<Setup & { info: ContainerInfoModel; row: Container }> {
  const s = await setup(ds, options)
  const res = await s.player.client.post(containerPath(s.game.id, s.challenge.id))
  expect(res.status).toBe(200)
  const info = ContainerInfoModel.parse(res.body)
  const instance = await em().findOneOrFail(GameInstance, { participation: s.player.participation.id, challenge: s.challenge.id }, { populate: ['container'] })
  const row = instance.container as Container
  // The engine's port proxy accepts a connection before the service inside listens, and then
  // closes it without a byte: wait (directly, not through the platform, so nothing is captured)
  // until the service answers, so that each test's first proxied connection is served.
  await banner(row.publicPort ?? row.port)
  return { ...s, info, row }
}

describe.skipIf(!available)('platform proxy on Docker', () => {
  beforeAll(async () => {
    ds = await startDockerServer({ CONTAINER_PORT_MAPPING: 'proxy' })
    admin = await ds.server.admin()
    monitor = await createUser(ds.server, { role: 'Monitor' })
    user = await createUser(ds.server)
  })
  afterAll(async () => {
    await ds?.close()
  })
  afterEach(() => closeAllSockets())

  it('gives the container GUID as entry and relays a TCP exchange over ws /api/proxy/{id}', async () => {
    const { info, row } = await startProxied({ type: 'DynamicContainer' })
    expect(info.entry).toBe(row.id)
    expect(row.isProxy).toBe(true)

    const plain = await ds.server.client().get(`/api/proxy/${row.id}`)
    expect(plain.status).toBe(204)
    expect(plain.text).toBe('')

    const s = await openProxy(`/api/proxy/${info.entry}`)
    await until(s, /\n/)
    expect(s.text()).toBe(`flag: ${row.flag}\n`)
    s.ws.send('hello\n')
    await until(s, /echo: hello\n/)
    s.ws.send(Buffer.from('binary too\n'))
    await until(s, /echo: binary too\n/)
    expect(s.received.every((b) => b.length <= 4096)).toBe(true)
    s.ws.close()
    const { frames } = await s.closed
    expect(frames.every((f) => f.binary)).toBe(true)
    await waitFor('the connection count to drop', async () => !ds.server.services.containers.connections.has(row.id))
  })

  it('sends a close frame without status code when the container closes the stream', async () => {
    const { info } = await startProxied()
    const s = await openProxy(`/api/proxy/${info.entry}`)
    await until(s, /\n/)
    // The container ends the TCP stream (it dies): the proxy closes the WebSocket without a code.
    const row = await em().findOneOrFail(Container, { id: info.entry })
    await ds.docker.getContainer(row.containerId).kill()
    const { code } = await s.closed
    expect(code).toBe(1005) // "no status code was present"
  })

  it('records each connection of a capture-enabled challenge as a pcap with metadata', async () => {
    const { game, challenge, player, info, row } = await startProxied({ type: 'DynamicContainer', challenge: { enableTrafficCapture: true, title: 'Capture Me' } })
    const s = await openProxy(`/api/proxy/${info.entry}`)
    await until(s, /\n/)
    s.ws.send('secret-payload\n')
    await until(s, /echo: secret-payload\n/)
    s.ws.close()
    await s.closed

    const dir = path.join(ds.server.dataDir, 'captures', String(challenge.id), String(player.participation.id))
    const files = await waitFor('the capture file', async () => {
      const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.pcap')) : []
      return names.length ? names : null
    })
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\d{8}-\d{2}\.\d{2}\.\d{2}-[0-9a-f]+\.pcap$/)
    const bytes = await waitFor('the capture to be closed', async () => {
      const b = fs.readFileSync(path.join(dir, files[0]!))
      // The writer creates the file before its header lands: an incomplete file is not ready yet.
      if (b.length < 24) return null
      const { packets } = readPcap(b)
      return packets.filter((p) => p.proto === 'tcp' && p.flags & 0x01).length >= 2 ? b : null
    })
    const { linktype, packets } = readPcap(bytes)
    expect(linktype).toBe(1)

    const [meta, ...tcp] = packets
    expect(meta!.proto).toBe('udp')
    expect(meta!.dport).toBe(65535)
    expect(JSON.parse(meta!.payload.toString('utf8'))).toMatchObject({
      challenge: 'Capture Me',
      challengeId: challenge.id,
      team: player.team.name,
      teamId: player.team.id,
      participationId: player.participation.id,
      containerId: row.id,
      flag: row.flag,
    })
    expect(tcp.every((p) => p.proto === 'tcp')).toBe(true)
    // handshake: SYN, SYN/ACK, ACK
    expect(tcp.slice(0, 3).map((p) => p.flags)).toEqual([0x02, 0x12, 0x10])
    const client = tcp[0]!
    expect(client.src).toBe('127.0.0.1')
    expect(client.dport).toBe(8080)
    const dump = JSON.stringify({ files: fs.readdirSync(dir), tcp: tcp.map((p) => [p.src, p.sport, p.dst, p.dport, p.flags, p.payload.toString('utf8')]) })
    const fromClient = Buffer.concat(tcp.filter((p) => p.src === client.src && p.sport === client.sport).map((p) => p.payload)).toString('utf8')
    const fromServer = Buffer.concat(tcp.filter((p) => p.sport === 8080).map((p) => p.payload)).toString('utf8')
    expect(fromClient, dump).toBe('secret-payload\n')
    expect(fromServer, dump).toBe(`flag: ${row.flag}\necho: secret-payload\n`)
    // sequence numbers follow the bytes
    const clientData = tcp.filter((p) => p.sport === client.sport && p.payload.length)
    expect(clientData[0]!.seq).toBe((client.seq + 1) >>> 0)

    // ---- the monitor endpoints ----
    const list = await monitor.client.get(`/api/game/games/${game.id}/captures`)
    expect(list.status).toBe(200)
    expect(z.array(ChallengeTrafficModel).parse(list.body)).toEqual([{ id: challenge.id, title: 'Capture Me', tag: challenge.tag, type: 'DynamicContainer', isEnabled: true, count: 1, category: challenge.tag }])
    const teams = await monitor.client.get(`/api/game/captures/${challenge.id}`)
    expect(teams.status).toBe(200)
    expect(z.array(TeamTrafficModel).parse(teams.body)).toEqual([{ id: player.participation.id, teamId: player.team.id, name: player.team.name, organization: null, avatar: null, count: 1 }])
    const records = await monitor.client.get(`/api/game/captures/${challenge.id}/${player.participation.id}`)
    expect(records.status).toBe(200)
    const recs = z.array(FileRecord).parse(records.body)
    expect(recs).toEqual([{ fileName: files[0], size: bytes.length, updateTime: expect.stringMatching(/\+00:00$/) }])

    const file = await admin.request('GET', `/api/game/captures/${challenge.id}/${player.participation.id}/${files[0]}`, { raw: true })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/octet-stream')
    expect(file.headers.get('content-disposition')).toContain(`attachment; filename="${files[0]}"`)
    const download = await fetch(`${ds.server.url}/api/game/captures/${challenge.id}/${player.participation.id}/${files[0]}`, { headers: { cookie: monitor.client.cookieHeader } })
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true)

    const zip = await fetch(`${ds.server.url}/api/game/captures/${challenge.id}/${player.participation.id}/all`, { headers: { cookie: monitor.client.cookieHeader } })
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(zip.headers.get('content-disposition')).toMatch(new RegExp(`filename="Capture-${challenge.id}-${player.participation.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.zip"`))
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()))
    expect([...entries.keys()]).toEqual([files[0]])
    expect(entries.get(files[0]!)!.equals(bytes)).toBe(true)

    // errors: HTTP 404 with body status 400 for files, 404/404 elsewhere
    const base = `/api/game/captures/${challenge.id}/${player.participation.id}`
    expectError(await monitor.client.get(`${base}/${files[0]!.replace('.pcap', '.txt')}`), 404, '未找到相关捕获信息', 400)
    expectError(await monitor.client.get(`${base}/missing.pcap`), 404, '未找到相关捕获信息', 400)
    expectError(await monitor.client.get(`${base}/..%2F..%2Fsecrets.pcap`), 404, '未找到相关捕获信息', 400)
    // only the last path component counts
    expect((await monitor.client.get(`${base}/elsewhere%2F${files[0]}`)).status).toBe(200)
  })

  it('answers the capture endpoints\' errors and roles', async () => {
    expect((await monitor.client.get('/api/game/games/999999999/captures')).body).toEqual([])
    expectError(await monitor.client.get('/api/game/captures/999999999'), 404, '未找到相关捕获信息')
    expectError(await monitor.client.get('/api/game/captures/999999999/1'), 404, '未找到相关捕获信息')
    expectError(await monitor.client.get('/api/game/captures/999999999/1/all'), 404, '未找到相关捕获信息')
    expectError(await monitor.client.get('/api/game/captures/999999999/1/x.pcap'), 404, '未找到相关捕获信息', 400)
    for (const p of ['/api/game/games/1/captures', '/api/game/captures/1', '/api/game/captures/1/1', '/api/game/captures/1/1/all', '/api/game/captures/1/1/a.pcap']) {
      expectError(await ds.server.client().get(p), 401, '请先登录')
      expectError(await user.client.get(p), 403, '无权访问')
    }
  })

  it('answers the proxy checks in order: unknown, limit, wrong kind, connect failure', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    expectError(await ds.server.client().get(`/api/proxy/${unknown}`), 404, '不存在的容器')
    expect(await refusal(`/api/proxy/${unknown}`)).toEqual({ status: 404, body: { title: '不存在的容器', status: 404 } })
    expect((await refusal('/api/proxy/not-a-guid')).status).toBe(404)

    const { info, row } = await startProxied()
    // a team container is not reachable as a test container
    expect(await refusal(`/api/proxy/noinst/${row.id}`)).toEqual({ status: 404, body: { title: '不存在的容器', status: 404 } })
    // more than 64 open connections
    ds.server.services.containers.connections.set(row.id, PROXY_CONNECTION_LIMIT + 1)
    try {
      expect(await refusal(`/api/proxy/${info.entry}`)).toEqual({ status: 400, body: { title: '容器连接数已达上限', status: 400 } })
    } finally {
      ds.server.services.containers.connections.delete(row.id)
    }
    // the container is gone from the engine (the reaper has not noticed yet): 418
    await ds.docker.getContainer(row.containerId).remove({ force: true })
    expect(await refusal(`/api/proxy/${info.entry}`)).toEqual({ status: 418, body: { title: '容器连接失败（ConnectionRefused）', status: 418 } })
  })

  it('reaches admin test containers through /api/proxy/noinst/{id} only', async () => {
    const { game, challenge } = await setup(ds, { type: 'DynamicContainer' })
    const res = await admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/container`)
    expect(res.status).toBe(200)
    const info = ContainerInfoModel.parse(res.body)
    const row = await em().findOneOrFail(Container, { id: info.entry })
    expect(row).toMatchObject({ testChallengeId: challenge.id, isProxy: true })
    expect(await refusal(`/api/proxy/${info.entry}`)).toEqual({ status: 404, body: { title: '不存在的容器', status: 404 } })
    expect((await ds.server.client().get(`/api/proxy/noinst/${info.entry}`)).status).toBe(204)
    await banner(row.publicPort ?? row.port)
    const s = await openProxy(`/api/proxy/noinst/${info.entry}`)
    await until(s, /\n/)
    expect(s.text()).toBe('flag: flag{GZCTF_dynamic_flag_test}\n')
    s.ws.close()
    // no capture for test containers
    expect(fs.existsSync(path.join(ds.server.dataDir, 'captures', String(challenge.id)))).toBe(false)
  })

  it('leaves Socket.IO upgrades to Socket.IO', async () => {
    const socket = await connect(ds.server, '/hub/user')
    expect(socket.connected).toBe(true)
  })
})
