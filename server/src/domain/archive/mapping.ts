/**
 * How CTFd's and ctfcli's challenge fields become Flagwave's (docs/archive.md#ctfd-and-ctfcli):
 * both describe the same CTFd challenge model, so they share one mapping. What has no place is
 * reported, never silently dropped.
 */
import path from 'node:path'
import { ChallengeTag } from '@flagwave/shared/enums'
import { FLAG_MAX } from '@flagwave/shared/limits'
import type { ArchiveChallenge } from '@flagwave/shared/schemas/gameArchive'
import { COSTED_HINT_CONTENT_MAX, COSTED_HINTS_MAX, FIXED_HINT_COST_MAX } from '@flagwave/shared/schemas/challengeRules'
import type { GameSettings } from './gameContent.js'
import { hashFile, type SourceFile } from './read.js'

const TAG_ALIASES: Record<string, ChallengeTag> = {
  rev: 'Reverse',
  re: 'Reverse',
  reversing: 'Reverse',
  'reverse engineering': 'Reverse',
  forensic: 'Forensics',
  programming: 'PPC',
  coding: 'PPC',
  algorithm: 'PPC',
  android: 'Mobile',
  ios: 'Mobile',
  'web3': 'Blockchain',
  'smart contract': 'Blockchain',
  binary: 'Pwn',
  exploitation: 'Pwn',
  cryptography: 'Crypto',
}

/** What an import collects while it maps. */
export class ImportReport {
  readonly mapped: string[] = []
  readonly unmapped: string[] = []
}

/** A category as one of Flagwave's tags; anything else becomes Misc (and is reported). */
export function tagOf(category: string | null | undefined, where: string, report: ImportReport): ChallengeTag {
  const key = (category ?? '').trim().toLowerCase()
  const tag = ChallengeTag.find((t) => t.toLowerCase() === key) ?? TAG_ALIASES[key]
  if (tag) return tag
  if (key) report.mapped.push(`${where}: category "${category}" has no Flagwave tag, imported as Misc`)
  return 'Misc'
}

export interface ScoreRule {
  type: string
  value?: number | null
  initial?: number | null
  minimum?: number | null
  decay?: number | null
  fn?: string | null
}

/**
 * CTFd's `standard` is a fixed score: Flagwave's curve with a minimum rate of 1. `dynamic` keeps
 * its initial and minimum values; its decay has no counterpart (Flagwave's curve is set by the
 * difficulty), which is reported.
 */
export function scoreOf(rule: ScoreRule, where: string, report: ImportReport): Pick<ArchiveChallenge, 'originalScore' | 'minScoreRate' | 'difficulty'> | null {
  const clampScore = (n: number | null | undefined) => Math.max(0, Math.min(2147483647, Math.round(n ?? 0)))
  if (rule.type === 'standard') return { originalScore: clampScore(rule.value), minScoreRate: 1, difficulty: 5 }
  if (rule.type === 'dynamic') {
    const initial = clampScore(rule.initial ?? rule.value)
    const minimum = clampScore(rule.minimum)
    const minScoreRate = initial > 0 ? Math.max(0, Math.min(1, minimum / initial)) : 1
    report.mapped.push(
      `${where}: dynamic score ${initial}→${minimum} kept; decay ${rule.decay ?? '?'}${rule.fn ? ` (${rule.fn})` : ''} replaced by Flagwave's curve (difficulty 5)`,
    )
    return { originalScore: initial, minScoreRate, difficulty: 5 }
  }
  report.unmapped.push(`${where}: challenge type "${rule.type}" is not supported, challenge skipped`)
  return null
}

/** A static flag as Flagwave keeps it, or null (reported) for what Flagwave cannot check. */
export function flagOf(type: string, content: string, data: string | null | undefined, where: string, report: ImportReport): string | null {
  if (type !== 'static') {
    report.unmapped.push(`${where}: ${type} flag ${JSON.stringify(content.slice(0, 60))} has no Flagwave counterpart, left out`)
    return null
  }
  if (content.length === 0 || content.length > FLAG_MAX) {
    report.unmapped.push(`${where}: flag longer than ${FLAG_MAX} characters or empty, left out`)
    return null
  }
  if (data === 'case_insensitive') report.mapped.push(`${where}: case-insensitive flag ${JSON.stringify(content.slice(0, 60))} is compared exactly`)
  return content
}

/** A challenge with Flagwave's defaults for what CTFd does not describe. */
export function baseChallenge(title: string, content: string, tag: ChallengeTag, score: Pick<ArchiveChallenge, 'originalScore' | 'minScoreRate' | 'difficulty'>): ArchiveChallenge {
  return {
    title: title.slice(0, 128) || 'Untitled',
    content,
    tag,
    type: 'StaticAttachment',
    hints: [],
    flagTemplate: null,
    isEnabled: false,
    fileName: 'attachment',
    attachment: null,
    containerImage: '',
    memoryLimit: 64,
    cpuCount: 1,
    storageLimit: 256,
    containerExposePort: 80,
    enableTrafficCapture: false,
    ...score,
    flags: [],
  }
}

/** A new game for imported challenges: hidden and dated a week ahead, for the organiser to set up. */
export function importedGameSettings(title: string): GameSettings {
  const start = new Date(Date.now() + 7 * 86400_000)
  const end = new Date(start.getTime() + 2 * 86400_000)
  return {
    title: title.slice(0, 128) || 'Imported game',
    summary: '',
    content: '',
    hidden: true,
    practiceMode: true,
    acceptWithoutReview: false,
    inviteCode: null,
    organizations: null,
    teamMemberCountLimit: 0,
    containerCountLimit: 3,
    poster: null,
    start: start.toISOString(),
    end: end.toISOString(),
    wpddl: end.toISOString(),
    wpNote: '',
    bloodBonus: 0,
  }
}

/**
 * Attach the files of a challenge: the first becomes its attachment, the others are reported
 * (a Flagwave challenge has one attachment; the organiser can bundle them).
 */
export async function attachFiles(
  challenge: ArchiveChallenge,
  files: { name: string; path: string | null }[],
  sources: Map<string, SourceFile>,
  where: string,
  report: ImportReport,
): Promise<void> {
  for (const [i, file] of files.entries()) {
    if (!file.path) {
      report.unmapped.push(`${where}: file ${file.name} is not in the upload, left out`)
      continue
    }
    if (challenge.attachment) {
      report.unmapped.push(`${where}: file ${file.name} left out (a Flagwave challenge has one attachment; ${files[0]!.name} was taken)`)
      continue
    }
    const hash = await hashFile(file.path)
    const name = path.posix.basename(file.name).slice(0, 256) || `file-${i}`
    sources.set(hash, { path: file.path, name })
    challenge.attachment = { type: 'Local', hash, fileName: name, remoteUrl: null }
  }
}

/** Enable what the source showed, if it can be solved. */
export function enableIfVisible(challenge: ArchiveChallenge, visible: boolean, where: string, report: ImportReport): void {
  if (visible && challenge.flags.length === 0) report.mapped.push(`${where}: visible but without a usable flag, imported disabled`)
  challenge.isEnabled = visible && challenge.flags.length > 0
}

/**
 * A CTFd hint: free, or with a cost a fixed-cost costed hint (docs/challenge-rules.md#costed-hints).
 * One that cannot be a costed hint (too long, too many) stays free, reported.
 */
export function addHint(challenge: ArchiveChallenge, content: string, cost: number | null | undefined, where: string, report: ImportReport): void {
  if (!cost || cost <= 0) return void challenge.hints.push(content)
  const costed = (challenge.costedHints ??= [])
  if (content.length <= COSTED_HINT_CONTENT_MAX && costed.length < COSTED_HINTS_MAX && content.trim() !== '') {
    const amount = Math.min(Math.round(cost), FIXED_HINT_COST_MAX)
    costed.push({ content, kind: 'Fixed', amount, freeAt: null })
    report.mapped.push(`${where}: hint cost ${cost} kept as a costed hint (${amount} points)`)
  } else {
    challenge.hints.push(content)
    report.mapped.push(`${where}: hint cost ${cost} dropped (the hint is too long or one too many to cost points)`)
  }
}
