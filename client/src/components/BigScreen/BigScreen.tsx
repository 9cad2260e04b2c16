/**
 * Big-screen scoreboard: full viewport (Fullscreen API button), large type, the whole ranking
 * auto-scrolling in a loop, rows gliding to new positions when ranks change (FLIP), a banner
 * for every blood, a live clock and the game countdown, and — on wide screens — the top-10
 * timeline and a feed of bloods and notices. With a `division` it shows that division's teams,
 * ranks, timeline and challenge count (its name under the title); without, the teams ranked overall.
 */
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react'
import { ActionIcon, Avatar, Tooltip } from '@mantine/core'
import { useFullscreenDocument } from '@mantine/hooks'
import { IconArrowLeft, IconMaximize, IconMinimize } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import dayjs from 'dayjs'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { FrozenBanner } from '../FrozenBanner/FrozenBanner'
import type { ScoreboardItem, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { RevealBar } from './RevealBar'
import { RevealCells } from './RevealCells'
import { GameQr } from './GameQr'
import { BLOOD_META, isBlood } from '../BloodIcon/BloodIcon'
import { countdownText, formatDuration, gamePhase, useNow } from '../GameTime/GameTime'
import { useChangeCount } from '../GameTime/useChangeCount'
import { BloodBanner, type BloodEvent } from './BloodBanner'
import { useAutoScroll } from './useAutoScroll'
import { useFlip } from './useFlip'
import { boardOfDivision, divisionRows, divisionTimeline } from '../../utils/divisionBoard'
import { challengeTitles } from '../../utils/revealCells'
import classes from './BigScreen.module.css'
import { t } from '../../i18n'
import { markdownToText } from '../../utils/markdownText'

const ScoreTimeline = lazy(() => import('../ScoreTimeline/ScoreTimeline'))

export interface BigScreenProps {
  gameId: number
  title: string
  start: string
  end: string
  scoreboard: ScoreboardModel | null
  notices: GameNotice[]
  /** The blood being announced (first of the queue). */
  banner: BloodEvent | null
  onBannerDone: () => void
  /** Why there is no scoreboard (e.g. `比赛未开始`). */
  message?: string | null
  /** The user hub's connection state (exposed as `data-realtime`). */
  realtime?: string
  /** The division shown (null: the overall board). */
  division?: { id: number; name: string } | null
  /** An open staged reveal (docs/scoring.md#staged-reveal): `scoreboard` is its board at this step. */
  reveal?: RevealState | null
  /** The game page's address, shown as a QR code in the corner (kiosk). */
  qrUrl?: string | null
  /** The connection dropped: the last board stays, with a notice, until it is back and resynced. */
  offline?: boolean
}

/** A feed line: the notice's text as it reads (Markdown markup removed, as in the toasts), cut on that text. */
const FEED_TEXT_MAX = 140
function feedText(content: string): string {
  const text = markdownToText(content).replace(/\s+/g, ' ')
  return text.length > FEED_TEXT_MAX ? `${text.slice(0, FEED_TEXT_MAX)}…` : text
}

export function BigScreen({ gameId, title, start, end, scoreboard, notices, banner, onBannerDone, message, realtime, division = null, reveal = null, qrUrl = null, offline = false }: BigScreenProps) {
  const now = useNow(1_000)
  const { toggle, fullscreen } = useFullscreenDocument()
  const list = useRef<HTMLDivElement>(null)
  const divisionId = division?.id ?? null
  const items = useMemo(() => divisionRows(scoreboard?.items ?? [], divisionId), [scoreboard, divisionId])
  const total = useMemo(() => {
    const board = scoreboard && divisionId !== null ? boardOfDivision(scoreboard, divisionId) : scoreboard
    return Object.values(board?.challenges ?? {}).reduce((n, l) => n + (l?.length ?? 0), 0)
  }, [scoreboard, divisionId])
  const phase = gamePhase(start, end, now)

  useFlip(list, [items])
  // During a reveal the screen follows the team being revealed instead of scrolling on its own.
  useAutoScroll(list, { enabled: items.length > 0 && !reveal })
  const pending = useMemo(() => new Map((reveal?.pending ?? []).map((p) => [p.teamId, p.challenges])), [reveal])
  const revealed = reveal?.last?.teamId ?? null
  const titles = useMemo(() => challengeTitles(scoreboard), [scoreboard])
  const focus = useMemo(() => {
    // The next team to open its cells is the lowest placed with pending ones; else the one just revealed.
    const next = [...items].reverse().find((i) => pending.has(i.id))
    return next?.id ?? revealed
  }, [items, pending, revealed])
  useEffect(() => {
    if (!reveal || focus === null) return
    list.current?.querySelector(`[data-team-id="${focus}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' })
  }, [reveal, focus, items])

  const feed = useMemo(() => [...notices].sort((a, b) => Date.parse(b.time) - Date.parse(a.time)).slice(0, 12), [notices])

  return (
    <div className={classes.root} data-testid="bigscreen" data-phase={phase} data-realtime={realtime} data-division-id={divisionId ?? 'all'}>
      <header className={classes.header}>
        <div>
          <div className={classes.title} data-testid="bigscreen-title">
            {title}
          </div>
          {scoreboard && scoreboard.divisions.length > 0 && (
            <div className={classes.division} data-testid="bigscreen-division">
              {division ? division.name : t('总榜')}
            </div>
          )}
        </div>
        <div>
          <div className={classes.clock} data-testid="bigscreen-clock">
            {dayjs(now).format('HH:mm:ss')}
          </div>
          <div className={classes.countdown} data-testid="bigscreen-countdown">
            {countdownText(start, end, now)}
          </div>
        </div>
      </header>
      {scoreboard?.frozen && <FrozenBanner scoreboard={scoreboard} size="lg" />}

      {reveal && <RevealBar reveal={reveal} />}
      {offline && (
        <div className={classes.offline} data-testid="bigscreen-offline">
          {t('连接中断，正在重连…')}
        </div>
      )}
      {qrUrl && <GameQr url={qrUrl} />}

      {!scoreboard ? (
        <div className={classes.waiting} data-testid="bigscreen-waiting">
          <div style={{ fontSize: '1.6em' }}>{message ?? t('正在加载积分榜…')}</div>
          {phase === 'upcoming' && <div className={classes.waitingCountdown}>{formatDuration(Date.parse(start) - now)}</div>}
        </div>
      ) : (
        <div className={classes.body}>
          <section className={`${classes.panel} ${classes.ranking}`}>
            <div className={classes.headRow}>
              <span style={{ textAlign: 'center' }}>{t('排名')}</span>
              <span>{t('队伍')}</span>
              <span style={{ textAlign: 'center' }}>{t('解题')}</span>
              <span style={{ textAlign: 'right' }}>{t('得分')}</span>
            </div>
            <div className={classes.list} ref={list} data-testid="bigscreen-list">
              {items.length === 0 && <div className={classes.waiting}>{t('暂无队伍')}</div>}
              {items.map((item) => (
                <div
                  key={item.id}
                  className={classes.row}
                  data-flip-key={item.id}
                  data-top={topOf(rankOf(item, division !== null))}
                  data-testid="bigscreen-row"
                  data-team-id={item.id}
                  data-rank={item.rank}
                  data-division-rank={item.divisionRank ?? undefined}
                  data-pending={pending.get(item.id)?.length}
                  data-revealed={reveal ? item.id === revealed : undefined}
                  data-blood={item.id === revealed && (reveal?.last?.bloods.length ?? 0) > 0 ? true : undefined}
                >
                  <span className={classes.rank} data-testid="bigscreen-rank">
                    {rankOf(item, division !== null)}
                  </span>
                  <span className={classes.team}>
                    <Avatar src={item.avatar ?? undefined} size="2em" radius="xl" color="brand" variant="filled">
                      {item.name.slice(0, 1)}
                    </Avatar>
                    <span style={{ minWidth: 0 }}>
                      <div className={classes.teamName} data-testid="bigscreen-team">
                        {item.name}
                      </div>
                      {item.organization && <div className={classes.org}>{item.organization}</div>}
                      {reveal && (pending.has(item.id) || item.id === revealed) && (
                        <RevealCells pending={pending.get(item.id) ?? []} opened={item.id === revealed ? reveal.last : null} titles={titles} />
                      )}
                    </span>
                  </span>
                  <span className={classes.solved}>
                    {item.solvedCount}
                    <span style={{ opacity: 0.5 }}>/{total}</span>
                    <div className={classes.progress}>
                      <span style={{ width: `${total ? (100 * item.solvedCount) / total : 0}%` }} />
                    </div>
                  </span>
                  <span className={classes.score} data-testid="bigscreen-score">
                    <Score value={item.score} />
                  </span>
                </div>
              ))}
            </div>
          </section>
          <aside className={classes.side}>
            <section className={classes.panel}>
              <div className={classes.sideTitle}>{t('前 10 名')}</div>
              <Suspense fallback={<div style={{ height: '32vh' }} />}>
                <ScoreTimeline timeLines={divisionTimeline(scoreboard, divisionId)} start={start} end={end} now={now} height={Math.max(220, Math.round(window.innerHeight * 0.34))} large dark />
              </Suspense>
            </section>
            <section className={`${classes.panel} ${classes.feed}`} data-testid="bigscreen-feed">
              <div className={classes.sideTitle}>{t('动态')}</div>
              {feed.length === 0 && <div style={{ opacity: 0.5 }}>{t('暂无动态')}</div>}
              {feed.map((n) => (
                <div key={n.id} className={classes.feedItem} style={{ ['--feed-color' as string]: isBlood(n.type) ? BLOOD_META[n.type].color : '#1de9b6' }}>
                  <span className={classes.feedTime}>{dayjs(n.time).format('HH:mm:ss')}</span>
                  <span data-testid="bigscreen-feed-text">{feedText(n.content)}</span>
                </div>
              ))}
            </section>
          </aside>
        </div>
      )}

      <div className={classes.controls}>
        <Tooltip label={t('返回积分榜')}>
          <ActionIcon component={Link} to={`/games/${gameId}/scoreboard`} variant="light" size="lg" aria-label={t('返回积分榜')} data-testid="bigscreen-exit">
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={fullscreen ? t('退出全屏') : t('全屏')}>
          <ActionIcon variant="light" size="lg" onClick={() => void toggle().catch(() => undefined)} aria-label={t('全屏')} data-testid="bigscreen-fullscreen">
            {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
          </ActionIcon>
        </Tooltip>
      </div>

      {banner && <BloodBanner key={banner.key} event={banner} onDone={onBannerDone} />}
    </div>
  )
}

/** The rank shown: within the division, or overall. */
const rankOf = (item: ScoreboardItem, inDivision: boolean): number => (inDivision ? (item.divisionRank ?? 0) : item.rank)

/** 1–3 for the podium's highlight, else none. */
const topOf = (rank: number): number | undefined => (rank >= 1 && rank <= 3 ? rank : undefined)

/** A score that pops when it changes (not on first render). */
function Score({ value }: { value: number }) {
  const changes = useChangeCount(value)
  return (
    <span key={changes} className={changes ? classes.scoreFlash : undefined}>
      {value}
    </span>
  )
}

