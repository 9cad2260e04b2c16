/**
 * ctfcli's `challenge.yml` (docs/archive.md#ctfcli): a lone file, or a zip holding one folder per
 * challenge, each with its `challenge.yml` and the files it names (relative to that folder).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { parse as parseYaml } from 'yaml'
import { ARCHIVE_DOCUMENT_MAX_BYTES } from '@flagwave/shared/limits'
import type { UploadedFile } from '../../lib/uploads.js'
import type { UnpackedArchive } from './unzip.js'
import { invalid, schemaProblem, type ReadImport, type SourceFile } from './read.js'
import type { GameContent } from './gameContent.js'
import { addHint, attachFiles, baseChallenge, enableIfVisible, flagOf, ImportReport, importedGameSettings, scoreOf, tagOf } from './mapping.js'

const text = z.string().max(1_000_000)
const num = z.number().finite()

const ChallengeYml = z.looseObject({
  name: z.string().min(1).max(1000),
  category: text.nullish(),
  description: text.nullish(),
  connection_info: text.nullish(),
  value: num.nullish(),
  type: z.string().max(100).default('standard'),
  extra: z.looseObject({ initial: num.nullish(), decay: num.nullish(), minimum: num.nullish(), function: z.string().nullish() }).nullish(),
  flags: z.array(z.union([text, z.looseObject({ type: z.string().default('static'), content: text, data: z.string().nullish() })])).max(1000).nullish(),
  hints: z.array(z.union([text, z.looseObject({ content: text, cost: num.nullish() })])).max(100).nullish(),
  files: z.array(z.string().max(1024)).max(1000).nullish(),
  tags: z.array(z.union([z.string(), z.looseObject({ value: z.string() })])).max(1000).nullish(),
  state: z.enum(['visible', 'hidden']).nullish(),
})

/** Keys of the format that Flagwave has no place for; reported when present. */
const UNMAPPED_KEYS = ['author', 'attribution', 'image', 'protocol', 'host', 'healthcheck', 'attempts', 'requirements', 'next', 'topics'] as const
const KNOWN_KEYS = new Set<string>([...Object.keys(ChallengeYml.shape), ...UNMAPPED_KEYS, 'version'])

function parseDocument(name: string, source: string): z.infer<typeof ChallengeYml> {
  let doc: unknown
  try {
    // Aliases are capped (the library's default of 100): a "billion laughs" document is refused.
    doc = parseYaml(source, { maxAliasCount: 100 })
  } catch (err) {
    throw invalid(`${name} is not valid YAML (${(err as Error).message.split('\n')[0]})`)
  }
  const parsed = ChallengeYml.safeParse(doc)
  if (!parsed.success) throw schemaProblem(name, parsed.error)
  return parsed.data
}

/** One challenge.yml → one challenge (or none, when its type is not supported). */
async function mapChallenge(
  doc: z.infer<typeof ChallengeYml>,
  fileOf: (relative: string) => string | null,
  sources: Map<string, SourceFile>,
  report: ImportReport,
): Promise<GameContent['challenges'][number] | null> {
  const where = `challenge "${doc.name}"`
  const score = scoreOf(
    { type: doc.type, value: doc.value, initial: doc.extra?.initial, minimum: doc.extra?.minimum, decay: doc.extra?.decay, fn: doc.extra?.function },
    where,
    report,
  )
  if (!score) return null
  let content = doc.description ?? ''
  if (doc.connection_info) {
    content += `${content ? '\n\n' : ''}${doc.connection_info}`
    report.mapped.push(`${where}: connection_info appended to the description`)
  }
  const challenge = baseChallenge(doc.name, content, tagOf(doc.category, where, report), score)
  for (const f of doc.flags ?? []) {
    const flag = typeof f === 'string' ? flagOf('static', f, null, where, report) : flagOf(f.type, f.content, f.data, where, report)
    if (flag) challenge.flags.push({ flag, attachment: null })
  }
  for (const h of doc.hints ?? []) {
    if (typeof h === 'string') challenge.hints.push(h)
    else addHint(challenge, h.content, h.cost, where, report)
  }
  await attachFiles(challenge, (doc.files ?? []).map((name) => ({ name, path: fileOf(name) })), sources, where, report)
  const tags = (doc.tags ?? []).map((t) => (typeof t === 'string' ? t : t.value))
  if (tags.length) report.unmapped.push(`${where}: tags ${tags.join(', ')} (a Flagwave challenge has only its category)`)
  for (const key of UNMAPPED_KEYS) if (doc[key] !== undefined && doc[key] !== null) report.unmapped.push(`${where}: ${key} has no Flagwave counterpart`)
  for (const key of Object.keys(doc)) if (!KNOWN_KEYS.has(key)) report.unmapped.push(`${where}: unknown key ${key}`)
  enableIfVisible(challenge, (doc.state ?? 'visible') === 'visible', where, report)
  return challenge
}

function toRead(title: string, challenges: GameContent['challenges'], sources: Map<string, SourceFile>, report: ImportReport): ReadImport {
  if (challenges.length === 0) throw invalid('no challenge could be imported')
  return { format: 'ctfcli', content: { game: importedGameSettings(title), challenges, notices: [] }, sources, mapped: report.mapped, unmapped: report.unmapped }
}

/** A lone `challenge.yml`: its files cannot come with it, and are reported. */
export async function readCtfcli(file: UploadedFile): Promise<ReadImport> {
  if (file.size > ARCHIVE_DOCUMENT_MAX_BYTES) throw invalid(`${file.name} is larger than ${ARCHIVE_DOCUMENT_MAX_BYTES} bytes`)
  const doc = parseDocument(file.name || 'challenge.yml', await fs.readFile(file.path, 'utf8'))
  const report = new ImportReport()
  const sources = new Map<string, SourceFile>()
  const challenge = await mapChallenge(doc, () => null, sources, report)
  return toRead(doc.name, challenge ? [challenge] : [], sources, report)
}

/** A zip of challenge folders; files are looked up beside each challenge.yml and never outside it. */
export async function readCtfcliArchive(archive: UnpackedArchive): Promise<ReadImport> {
  const report = new ImportReport()
  const sources = new Map<string, SourceFile>()
  const challenges: GameContent['challenges'] = []
  const ymls = [...archive.entries.keys()].filter((name) => /(^|\/)challenge\.ya?ml$/.test(name)).sort()
  for (const name of ymls) {
    const doc = parseDocument(name, await archive.text(name))
    const dir = path.posix.dirname(name)
    const fileOf = (relative: string): string | null => {
      const joined = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, relative))
      const inside = dir === '.' ? !joined.startsWith('../') : joined.startsWith(`${dir}/`)
      if (!inside || path.posix.isAbsolute(relative)) return null
      return archive.entries.get(joined)?.path ?? null
    }
    const challenge = await mapChallenge(doc, fileOf, sources, report)
    if (challenge) challenges.push(challenge)
  }
  return toRead(ymls.length === 1 ? challenges[0]?.title ?? 'ctfcli import' : 'ctfcli import', challenges, sources, report)
}
