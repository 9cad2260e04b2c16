/**
 * The static archive of a finished game (docs/archive.md#static-archive): `index.html` with the
 * final board, its chart, the notices and — as the organiser chooses — the challenge
 * descriptions and attachments (`files/<hash>/<name>`). Everything the page shows is inlined in
 * it as data read by one classic script: no module script, no fetch, no other origin, so the page
 * works from any static host and from disk (`file://`), where Chromium refuses module scripts and
 * fetches of local files.
 */
import { unheldNotices } from '../games/freezeHold.js'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { StaticArchiveOptions } from '@flagwave/shared/schemas/gameArchive'
import type { BlobStore } from '../../storage/blobStore.js'
import type { ScoreboardService } from '../scoreboard/service.js'
import type { Game } from '../../entities/Game.js'
import { Attachment } from '../../entities/Attachment.js'
import { Challenge } from '../../entities/Challenge.js'
import { GameNotice } from '../../entities/GameNotice.js'
import { badRequest } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { findGame } from '../games/games.js'
import { fileTimestamp } from '../writeups/writeups.js'
import { zipStream, type ZipEntry } from './zipStream.js'
import { SITE_SCRIPT, SITE_STYLE } from './staticSiteAssets.js'

const GAME_NOT_ENDED = '比赛尚未结束'

/**
 * The board an archive shows — the one place the static archive reads it: the public board, so
 * while a game's board is frozen the frozen one (docs/archive.md#frozen-boards), and its notices
 * leave out the bloods the freeze holds back.
 */
async function archivedBoard(deps: SiteDeps, game: Game): Promise<ScoreboardModel> {
  return deps.scoreboard.get(game.id)
}

/** What the site is built from: a running node's services, or the CLI's own (server/src/cli/archive.ts). */
export interface SiteDeps {
  storage: BlobStore
  scoreboard: Pick<ScoreboardService, 'get'>
}

/** A name safe as one path segment on every host and file system. */
const safeSegment = (name: string): string =>
  [...name]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|#%'.includes(ch) ? '_' : ch))
    .join('')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 120) || 'file'

interface SiteData {
  title: string
  summary: string
  start: string
  end: string
  generatedAt: string
  board: ScoreboardModel
  notices: { type: string; content: string; time: string }[]
  challenges: { title: string; tag: string; score: number; solved: number; content: string | null; attachment: { name: string; href: string } | null }[] | null
}

/** JSON that can sit inside a classic `<script>`: no `</script>`, no `<!--`, no line separators. */
const inlineJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

function page(data: SiteData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Flagwave">
<title>${escapeHtml(data.title)}</title>
<style>${SITE_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(data.title)}</h1><p id="period"></p><p id="summary"></p></header>
<nav><a href="#scoreboard">Scoreboard</a> <a href="#challenges" id="nav-challenges">Challenges</a> <a href="#notices">Notices</a></nav>
<main>
<section id="scoreboard"><h2>Scoreboard</h2><div id="chart"></div><table id="board"><thead><tr><th>#</th><th>Team</th><th>Organization</th><th>Solved</th><th>Score</th></tr></thead><tbody></tbody></table></section>
<section id="challenges"><h2>Challenges</h2><div id="challenge-list"></div></section>
<section id="notices"><h2>Notices</h2><ul id="notice-list"></ul></section>
</main>
<footer>Archived <span id="generated"></span> with Flagwave.</footer>
<noscript><p>This archive draws its pages with a script; allow scripts to see the board.</p></noscript>
<script>window.FLAGWAVE_ARCHIVE = ${inlineJson(data)};</script>
<script>${SITE_SCRIPT}</script>
</body>
</html>
`
}

/** Every file of the site: `index.html`, and `files/<hash>/<name>` for each attachment chosen. */
async function staticSiteEntries(em: EntityManager, services: SiteDeps, game: Game, options: StaticArchiveOptions): Promise<ZipEntry[]> {
  if (game.end.getTime() > Date.now()) throw badRequest(GAME_NOT_ENDED)
  const board = await archivedBoard(services, game)
  const notices = unheldNotices(game, await em.find(GameNotice, { game: game.id }, { orderBy: { publishTime: 'desc', id: 'desc' } }))
  const entries: ZipEntry[] = []
  let challenges: SiteData['challenges'] = null
  if (options.challenges) {
    // Only what players could see: enabled challenges, with the score and solves of the final board.
    const rows = await em.find(Challenge, { game: game.id, isEnabled: true }, { populate: ['attachment'], orderBy: { id: 'asc' } })
    const onBoard = new Map(Object.values(board.challenges).flatMap((list) => list ?? []).map((c) => [c.id, c]))
    challenges = []
    for (const c of rows) {
      const attachment = c.attachment as Attachment | null
      let link: { name: string; href: string } | null = null
      if (options.attachments && attachment?.type === 'Remote' && attachment.remoteUrl) link = { name: attachment.remoteUrl, href: attachment.remoteUrl }
      if (options.attachments && attachment?.type === 'Local' && attachment.fileHash && (await services.storage.has(attachment.fileHash))) {
        const hash = attachment.fileHash
        const name = safeSegment(attachment.fileName ?? 'attachment')
        const href = `files/${hash}/${name}`
        if (!entries.some((e) => e.name === href)) entries.push({ name: href, data: () => services.storage.open(hash) })
        link = { name: attachment.fileName ?? name, href }
      }
      const shown = onBoard.get(c.id)
      challenges.push({ title: c.title, tag: c.tag, score: shown?.score ?? c.originalScore, solved: shown?.solved ?? 0, content: c.content, attachment: link })
    }
  }
  const data: SiteData = {
    title: game.title,
    summary: game.summary,
    start: game.start.toISOString(),
    end: game.end.toISOString(),
    generatedAt: new Date().toISOString(),
    board,
    notices: notices.map((n) => ({ type: n.type, content: n.content, time: n.publishTime.toISOString() })),
    challenges,
  }
  return [{ name: 'index.html', data: page(data) }, ...entries]
}

/** `POST /api/edit/games/{id}/archive`: the site as one zip, built while it is sent. */
export async function staticArchive(scope: Scope, actor: Actor, gameId: number, options: StaticArchiveOptions): Promise<{ fileName: string; stream: Readable }> {
  const game = await findGame(scope.em, gameId)
  const entries = await staticSiteEntries(scope.em, scope.services, game, options)
  await scope.services.audit.success(actor, `生成了比赛 #${game.id} ${game.title} 的静态归档`)
  return { fileName: `Archive-${game.id}-${fileTimestamp(new Date(), true)}Z.zip`, stream: zipStream(scope.services, 'static archive', entries) }
}

/**
 * `npm run archive -- <gameId> <outDir>`: the same site written into a folder (created if
 * needed). Entry names are the site's own (`index.html`, `files/<hash>/<safe name>`), never
 * taken from input, so nothing is written outside `outDir`.
 */
export async function writeStaticSite(em: EntityManager, deps: SiteDeps, gameId: number, outDir: string, options: StaticArchiveOptions): Promise<string[]> {
  const game = await findGame(em, gameId)
  const entries = await staticSiteEntries(em, deps, game, options)
  for (const entry of entries) {
    const target = path.join(outDir, ...entry.name.split('/'))
    await fs.mkdir(path.dirname(target), { recursive: true })
    if (typeof entry.data === 'function') await pipeline(await entry.data(), createWriteStream(target))
    else await fs.writeFile(target, entry.data)
  }
  return entries.map((e) => e.name)
}
