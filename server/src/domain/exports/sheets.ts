/**
 * Spreadsheet exports for monitors (docs/compatibility.md#group-game-monitors): the scoreboard and every
 * submission, as .xlsx files written with exceljs's streaming writer straight into the response,
 * so a large game never sits in memory as a whole workbook. Submissions are read in keyset pages.
 */
import { PassThrough, type Readable } from 'node:stream'
import { once } from 'node:events'
import type { EntityManager } from '@mikro-orm/postgresql'
import ExcelJS from 'exceljs'
import { answerResultText, type AnswerResult } from '@flagwave/shared/enums'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Services } from '../../services.js'
import type { Game } from '../../entities/Game.js'
import { Team } from '../../entities/Team.js'
import type { User } from '../../entities/User.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { startedGame } from '../play/games.js'

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const EXPORT_FAILED = '遇到问题，请重试'
const SCOREBOARD_SHEET = '排行榜'
const SUBMISSION_SHEET = '全部提交'
const HINT_PENALTY_HEADER = '提示扣分'
const SCOREBOARD_HEADER = ['排名', '战队', '队长', '队员', '学号', '手机号', '解题数量', '得分时间', '总分'] as const
const ORGANIZATION_HEADER = '所属组织'
const SUBMISSION_HEADER = ['提交状态', '提交时间', '战队', '用户', '题目', '提交内容', '用户邮箱'] as const

const SUBMISSION_PAGE = 1000

const pad = (n: number) => String(n).padStart(2, '0')

/** `yyyyMMddHHmmss` in the server's local time (download names). */
const localStamp = (d: Date): string =>
  `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`

/** .NET's universal sortable format `u`: `yyyy-MM-dd HH:mm:ssZ` in UTC. */
const universalSortable = (value: Date | string): string => {
  const d = value instanceof Date ? value : new Date(value)
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}Z`
}

/** One submission row of the sheet, with the exact stored time as text for keyset paging. */
interface SubmissionRow {
  id: number
  answer: string
  status: AnswerResult
  submit_time: Date
  cursor_time: string
  user_name: string | null
  email: string | null
  team_name: string
  challenge_title: string
}

/** A page of a game's submissions, newest first, strictly after the `before` cursor. */
function submissionPage(em: EntityManager, gameId: number, limit: number, before?: { time: string; id: number }): Promise<SubmissionRow[]> {
  return em.execute<SubmissionRow[]>(
    `select s.id, s.answer, s.status, s.submit_time, s.submit_time::text as cursor_time, u.user_name, u.email, t.name as team_name, c.title as challenge_title
       from submissions s
       join participations p on p.id = s.participation_id
       join teams t on t.id = p.team_id
       join challenges c on c.id = s.challenge_id
       left join users u on u.id = s.user_id
      where s.game_id = ?${before ? ' and (s.submit_time, s.id) < (?::timestamptz, ?)' : ''}
      order by s.submit_time desc, s.id desc
      limit ?`,
    before ? [gameId, before.time, before.id, limit] : [gameId, limit],
  )
}

export interface Export {
  fileName: string
  stream: Readable
}

function startWorkbook(services: Services, what: string): { out: PassThrough; workbook: ExcelJS.stream.xlsx.WorkbookWriter } {
  const out = new PassThrough()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
  workbook.creator = 'Flagwave'
  out.on('error', (err) => services.log.warn({ err, what }, 'export stream closed'))
  return { out, workbook }
}

function writeHeader(sheet: ExcelJS.Worksheet, titles: readonly string[]): void {
  const row = sheet.addRow([...titles])
  row.eachCell((cell) => {
    cell.font = { bold: true }
    cell.border = { bottom: { style: 'medium' } }
    cell.alignment = { vertical: 'middle', horizontal: 'center' }
  })
  row.commit()
}

/** Wait while the client is slower than the database, so memory stays bounded. */
async function drained(out: PassThrough): Promise<void> {
  if (out.writableNeedDrain && !out.destroyed) await once(out, 'drain')
}

/** Run the writer in the background; a failure after the headers went out can only cut the stream. */
function run(services: Services, out: PassThrough, what: string, write: () => Promise<void>): void {
  write().catch((err) => {
    services.log.error({ err, what }, 'export failed')
    out.destroy(err as Error)
  })
}

/** A worksheet name for a division: Excel's limits (31 characters, no `[]:*?/\\`), unique in the workbook. */
function sheetName(division: string, id: number, taken: Set<string>): string {
  let name = division.replace(/[[\]:*?/\\]/g, '_').slice(0, 31).trim() || `#${id}`
  if (taken.has(name)) name = `${name.slice(0, 31 - String(id).length - 1)}#${id}`
  taken.add(name)
  return name
}

/**
 * `GET /api/game/{id}/scoreboardsheet`: the sheet `排行榜` (then one sheet per division, ranked within it) — rank, team, [organization], captain,
 * members, student numbers, phones (real names joined with `/`), solved count, last submission
 * time, total score, then the team's points per challenge. An empty board is `遇到问题，请重试`.
 */
export async function scoreboardSheet(em: EntityManager, services: Services, gameId: number): Promise<Export> {
  const game = await startedGame(em, gameId, 400)
  let scoreboard: ScoreboardModel
  let teams: Map<number, Team>
  try {
    // Monitor-only: the live board, also during a freeze (docs/scoring.md#freeze).
    const live = await services.scoreboard.liveSnapshot(game.id)
    if (!live) throw notFound('比赛未找到')
    scoreboard = live.model
    const found = await em.find(Team, { id: { $in: scoreboard.items.map((i) => i.id) } }, { populate: ['members', 'captain'] })
    teams = new Map(found.map((t) => [t.id, t]))
  } catch (err) {
    services.log.error({ err, gameId }, 'scoreboard sheet failed')
    throw badRequest(EXPORT_FAILED)
  }
  if (scoreboard.items.length === 0) throw badRequest(EXPORT_FAILED)

  const { out, workbook } = startWorkbook(services, 'scoreboard sheet')
  run(services, out, 'scoreboard sheet', async () => {
    const withOrganization = scoreboard.divisions.length > 0
    const header: string[] = [...SCOREBOARD_HEADER]
    if (withOrganization) header.splice(2, 0, ORGANIZATION_HEADER)
    const challenges = Object.values(scoreboard.challenges).flatMap((list) => list ?? [])
    // The overall board first (teams ranked overall), then one sheet per division ranked within it (docs/scoring.md#divisions).
    const sheets: { name: string; items: ScoreboardModel['items']; rankOf: (item: ScoreboardModel['items'][number]) => number }[] = [
      { name: SCOREBOARD_SHEET, items: withOrganization ? scoreboard.items.filter((i) => i.rank > 0) : scoreboard.items, rankOf: (i) => i.rank },
    ]
    const names = new Set([SCOREBOARD_SHEET])
    for (const division of scoreboard.divisions) {
      sheets.push({ name: sheetName(division.name, division.id, names), items: scoreboard.items.filter((i) => i.divisionId === division.id), rankOf: (i) => i.divisionRank ?? 0 })
    }
    // Costed hints (docs/challenge-rules.md#costed-hints): `总分` is net of them; a game where some team paid gets their sum as a last column.
    const penalties = scoreboard.items.some((i) => (i.hintPenalty ?? 0) > 0)
    for (const { name, items, rankOf } of sheets) {
    const sheet = workbook.addWorksheet(name)
    writeHeader(sheet, [...header, ...challenges.map((c) => c.title), ...(penalties ? [HINT_PENALTY_HEADER] : [])])
    for (const item of items) {
      const team = teams.get(item.id)
      const members = team ? team.members.getItems() : []
      const captain = team ? (team.captain as User) : null
      const points = new Map(item.challenges.map((c) => [c.id, c.score]))
      const cells: (string | number | null)[] = [rankOf(item), item.name]
      if (withOrganization) cells.push(item.organization ?? '')
      cells.push(
        captain?.realName ?? '',
        members.map((m) => m.realName ?? '').join('/'),
        members.map((m) => m.stdNumber ?? '').join('/'),
        members.map((m) => m.phone ?? '').join('/'),
        item.solvedCount,
        universalSortable(item.lastSubmissionTime),
        item.score,
        ...challenges.map((c) => points.get(c.id) ?? 0),
        ...(penalties ? [item.hintPenalty ?? 0] : []),
      )
      sheet.addRow(cells).commit()
      await drained(out)
    }
    sheet.commit()
    }
    await workbook.commit()
  })
  return { fileName: `${game.title}_Scoreboard_${localStamp(new Date())}.xlsx`, stream: out }
}

/**
 * `GET /api/game/{id}/submissionsheet`: one sheet `全部提交` with every submission, newest first —
 * status (short Chinese text), time, team, user, challenge, answer, user e-mail.
 */
export async function submissionSheet(em: EntityManager, services: Services, gameId: number): Promise<Export> {
  const game: Game = await startedGame(em, gameId, 400)
  const { out, workbook } = startWorkbook(services, 'submission sheet')
  const reader = services.orm.em.fork()
  run(services, out, 'submission sheet', async () => {
    const sheet = workbook.addWorksheet(SUBMISSION_SHEET)
    writeHeader(sheet, SUBMISSION_HEADER)
    let before: { time: string; id: number } | undefined
    for (;;) {
      const rows = await submissionPage(reader, game.id, SUBMISSION_PAGE, before)
      for (const r of rows) {
        sheet
          .addRow([answerResultText[r.status], universalSortable(r.submit_time), r.team_name, r.user_name ?? '', r.challenge_title, r.answer, r.email ?? ''])
          .commit()
      }
      if (out.destroyed) return
      await drained(out)
      if (rows.length < SUBMISSION_PAGE) break
      const last = rows[rows.length - 1]!
      before = { time: last.cursor_time, id: last.id }
    }
    sheet.commit()
    await workbook.commit()
  })
  return { fileName: `${game.title}_Submissions_${localStamp(new Date())}.xlsx`, stream: out }
}
