/** The full-screen banner of a first/second/third blood. */
import { useEffect } from 'react'
import { IconDropletFilled } from '@tabler/icons-react'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { BLOOD_META, isBlood, type BloodKind } from '../BloodIcon/BloodIcon'
import classes from './BigScreen.module.css'
import { t } from '../../i18n'

export interface BloodEvent {
  key: string
  kind: BloodKind
  team: string | null
  challenge: string | null
  /** The notice text as a fallback when it cannot be parsed. */
  text: string
}

const KIND_TITLE: Record<BloodKind, string> = {
  FirstBlood: 'FIRST BLOOD',
  SecondBlood: 'SECOND BLOOD',
  ThirdBlood: 'THIRD BLOOD',
}

/** `恭喜 {team} 获得 「{challenge}」 的一血` → team and challenge (docs/compatibility.md#game-notice-and-event-shapes). */
export function parseBloodNotice(notice: GameNotice): BloodEvent | null {
  if (!isBlood(notice.type)) return null
  const match = /^恭喜\s+(.+?)\s+获得\s+「(.+)」\s*的[一二三]血$/s.exec(notice.content.trim())
  return { key: `${notice.id}`, kind: notice.type, team: match?.[1] ?? null, challenge: match?.[2] ?? null, text: notice.content }
}

const BANNER_MS = 5_000

export function BloodBanner({ event, onDone, durationMs = BANNER_MS }: { event: BloodEvent; onDone: () => void; durationMs?: number }) {
  useEffect(() => {
    const timer = setTimeout(onDone, durationMs)
    return () => clearTimeout(timer)
  }, [event.key, onDone, durationMs])
  const meta = BLOOD_META[event.kind]
  return (
    <div className={classes.bannerWrap} style={{ ['--banner-ms' as string]: `${durationMs}ms` }} data-testid="blood-banner" data-kind={event.kind}>
      <div className={classes.banner} style={{ ['--blood-color' as string]: meta.color }}>
        <div className={classes.bannerKind}>
          <IconDropletFilled className={classes.bannerDrop} size="1em" />
          <span>
            {meta.label} · {KIND_TITLE[event.kind]}
          </span>
        </div>
        {event.team ? (
          <>
            <div className={classes.bannerTeam} data-testid="blood-banner-team">
              {event.team}
            </div>
            <div className={classes.bannerChallenge} data-testid="blood-banner-challenge">
              {t('解出「{{challenge}}」', { challenge: event.challenge })}
            </div>
          </>
        ) : (
          <div className={classes.bannerChallenge}>{event.text}</div>
        )}
      </div>
    </div>
  )
}
