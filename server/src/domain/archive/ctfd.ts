/**
 * A CTFd 3.x export (docs/archive.md#ctfd): a zip with one JSON document per table under `db/`
 * (`{"count": n, "results": [rows], "meta": {}}`) and the uploaded files under `uploads/`, each
 * at the `location` its `files` row names. Challenges with their dynamic values, flags, hints,
 * files and tags are read, and notifications become notices; accounts, teams, submissions and
 * the rest of a CTFd instance are counted in the report and left out.
 */
import { z } from 'zod'
import { ARCHIVE_DOCUMENT_MAX_BYTES } from '@flagwave/shared/limits'
import type { UnpackedArchive } from './unzip.js'
import { parseJson } from './unzip.js'
import { invalid, schemaProblem, type ReadImport, type SourceFile } from './read.js'
import type { GameContent } from './gameContent.js'
import { addHint, attachFiles, baseChallenge, enableIfVisible, flagOf, ImportReport, importedGameSettings, scoreOf, tagOf } from './mapping.js'

const id = z.number().int()
const str = z.string().max(1_000_000)
const num = z.number().finite()

const Table = <T extends z.ZodType>(row: T) => z.looseObject({ count: z.number().int().nullish(), results: z.array(row).nullish() })

const ChallengeRow = z.looseObject({
  id,
  name: str,
  description: str.nullish(),
  connection_info: str.nullish(),
  max_attempts: num.nullish(),
  value: num.nullish(),
  category: str.nullish(),
  type: z.string(),
  state: z.string().nullish(),
  requirements: z.unknown().optional(),
  next_id: z.unknown().optional(),
})
const DynamicRow = z.looseObject({ id, initial: num.nullish(), minimum: num.nullish(), decay: num.nullish(), function: z.string().nullish() })
const FlagRow = z.looseObject({ id, challenge_id: id.nullish(), type: z.string(), content: str, data: z.string().nullish() })
const HintRow = z.looseObject({ id, challenge_id: id.nullish(), content: str, cost: num.nullish() })
const FileRow = z.looseObject({ id, type: z.string().nullish(), location: z.string().max(1024), challenge_id: id.nullish() })
const TagRow = z.looseObject({ id, challenge_id: id.nullish(), value: str })
const NotificationRow = z.looseObject({ id, title: str.nullish(), content: str.nullish(), date: z.string().nullish() })
const ConfigRow = z.looseObject({ key: z.string(), value: z.string().nullish() })

/** Tables read for the game; everything else under `db/` is reported by row count. */
const READ_TABLES = new Set(['challenges', 'dynamic_challenge', 'flags', 'hints', 'files', 'tags', 'notifications', 'config', 'alembic_version'])

async function table<T extends z.ZodType>(archive: UnpackedArchive, name: string, row: T, required = false): Promise<z.infer<T>[]> {
  const entry = `db/${name}.json`
  if (!archive.entries.has(entry)) {
    if (required) throw invalid(`${entry} is missing`)
    return []
  }
  const parsed = Table(row).safeParse(parseJson(entry, await archive.text(entry)))
  if (!parsed.success) throw schemaProblem(entry, parsed.error)
  return (parsed.data.results ?? []) as z.infer<T>[]
}

function noticeTime(date: string | null | undefined): string {
  const d = date ? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(date) ? date : `${date}Z`) : new Date()
  return Number.isNaN(d.getTime()) ? new Date().toISOString() : d.toISOString()
}

export async function readCtfd(archive: UnpackedArchive): Promise<ReadImport> {
  const report = new ImportReport()
  const sources = new Map<string, SourceFile>()
  const challengeRows = await table(archive, 'challenges', ChallengeRow, true)
  const dynamic = new Map((await table(archive, 'dynamic_challenge', DynamicRow)).map((d) => [d.id, d]))
  const flags = await table(archive, 'flags', FlagRow)
  const hints = await table(archive, 'hints', HintRow)
  const files = await table(archive, 'files', FileRow)
  const tags = await table(archive, 'tags', TagRow)
  const notifications = await table(archive, 'notifications', NotificationRow)
  const config = await table(archive, 'config', ConfigRow)

  const challenges: GameContent['challenges'] = []
  /** CTFd id → position among the imported challenges, and each one's CTFd prerequisites (docs/challenge-rules.md#prerequisites). */
  const positions = new Map<number, number>()
  const requirements: { index: number; ids: number[]; where: string }[] = []
  for (const row of [...challengeRows].sort((a, b) => a.id - b.id)) {
    const where = `challenge #${row.id} "${row.name}"`
    const d = dynamic.get(row.id)
    const score = scoreOf({ type: row.type, value: row.value, initial: d?.initial, minimum: d?.minimum, decay: d?.decay, fn: d?.function }, where, report)
    if (!score) continue
    let content = row.description ?? ''
    if (row.connection_info) {
      content += `${content ? '\n\n' : ''}${row.connection_info}`
      report.mapped.push(`${where}: connection_info appended to the description`)
    }
    const challenge = baseChallenge(row.name, content, tagOf(row.category, where, report), score)
    for (const f of flags.filter((f) => f.challenge_id === row.id)) {
      const flag = flagOf(f.type, f.content, f.data, where, report)
      if (flag) challenge.flags.push({ flag, attachment: null })
    }
    for (const h of hints.filter((h) => h.challenge_id === row.id)) {
      addHint(challenge, h.content, h.cost, where, report)
    }
    const own = files.filter((f) => f.challenge_id === row.id && (f.type ?? 'challenge') === 'challenge')
    await attachFiles(
      challenge,
      own.map((f) => ({ name: f.location, path: archive.entries.get(`uploads/${f.location}`)?.path ?? null })),
      sources,
      where,
      report,
    )
    const tagValues = tags.filter((t) => t.challenge_id === row.id).map((t) => t.value)
    if (tagValues.length) report.unmapped.push(`${where}: tags ${tagValues.join(', ')} (a Flagwave challenge has only its category)`)
    if (row.max_attempts) report.unmapped.push(`${where}: max_attempts ${row.max_attempts} has no Flagwave counterpart`)
    const required = prerequisitesOf(row.requirements)
    if (required === null) report.unmapped.push(`${where}: requirements in a form Flagwave does not read`)
    else if (required.ids.length > 0) {
      requirements.push({ index: challenges.length, ids: required.ids, where })
      if (required.anonymize) challenge.lockedTitleVisible = false
    }
    enableIfVisible(challenge, row.state === 'visible', where, report)
    positions.set(row.id, challenges.length)
    challenges.push(challenge)
  }
  for (const { index, ids, where } of requirements) {
    const kept = ids.flatMap((id) => (positions.has(id) ? [positions.get(id)!] : []))
    challenges[index]!.prerequisites = kept
    report.mapped.push(`${where}: requirements kept as prerequisites${kept.length < ids.length ? ' (those not imported are left out)' : ''}`)
  }
  if (challenges.length === 0) throw invalid('no challenge could be imported')

  const notices = notifications
    .map((n) => ({ content: [n.title, n.content].filter(Boolean).join('\n\n'), publishTime: noticeTime(n.date) }))
    .filter((n) => n.content.length > 0)
  const unusedFiles = files.filter((f) => !challengeRows.some((c) => c.id === f.challenge_id) || (f.type ?? 'challenge') !== 'challenge')
  if (unusedFiles.length) report.unmapped.push(`db/files.json: ${unusedFiles.length} file(s) of pages or deleted challenges left out`)
  for (const name of [...archive.entries.keys()].sort()) {
    const m = /^db\/([^/]+)\.json$/.exec(name)
    if (!m || READ_TABLES.has(m[1]!)) continue
    if (archive.entries.get(name)!.size > ARCHIVE_DOCUMENT_MAX_BYTES) {
      report.unmapped.push(`${name}: not imported (not part of a game's content)`)
      continue
    }
    const rows = Table(z.unknown()).safeParse(parseJson(name, await archive.text(name)))
    const count = rows.success ? (rows.data.results?.length ?? 0) : 0
    if (count > 0) report.unmapped.push(`${name}: ${count} row(s) not imported (not part of a game's content)`)
  }
  const title = config.find((c) => c.key === 'ctf_name')?.value ?? 'CTFd import'
  return { format: 'ctfd', content: { game: importedGameSettings(title), challenges, notices }, sources, mapped: report.mapped, unmapped: report.unmapped }
}

/** CTFd's `requirements` (`{prerequisites: ids, anonymize}`, as JSON or text): the ids, or null when unreadable. */
function prerequisitesOf(value: unknown): { ids: number[]; anonymize: boolean } | null {
  if (value === null || value === undefined || value === '') return { ids: [], anonymize: false }
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      return null
    }
  }
  const shape = z.object({ prerequisites: z.array(z.number().int()).max(1000).optional(), anonymize: z.boolean().nullish() }).safeParse(parsed)
  if (!shape.success) return null
  return { ids: shape.data.prerequisites ?? [], anonymize: shape.data.anonymize === true }
}
