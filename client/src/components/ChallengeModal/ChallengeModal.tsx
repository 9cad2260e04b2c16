/**
 * A challenge of the board (GET /api/game/{id}/challenges/{cid}): statement (sanitised Markdown),
 * hints, the attachment, the container slot and the flag form.
 *
 * Submitting POSTs the flag, then waits for the verdict (`waitForSubmission`): the team-private
 * `ReceivedSubmissionResult` push, or — without a push within ~1.5 s or with the socket down —
 * the status call polled every 500 ms. Accepted → celebration and the solved mark; WrongAnswer
 * and NotFound are shown inline.
 *
 * Container controls: `renderContainer` (a slot) replaces the built-in `ContainerControls` for
 * container challenges; pass `() => null` to hide them.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { Alert, Badge, Button, Divider, Group, List, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconBulb, IconCircleCheckFilled, IconDownload, IconExternalLink, IconFlag, IconX } from '@tabler/icons-react'
import { isContainerType, type AnswerResult } from '@flagwave/shared/enums'
import { CONTAINER_COOLDOWN_MS, SUBMIT_FLAG_MAX } from '@flagwave/shared/limits'
import type { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { gameApi } from '../../api/game'
import { ApiError, errorMessage } from '../../api/http'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { useGameStore, waitForSubmission } from '../../stores/game'
import { ChallengeTagBadge } from '../ChallengeTag/ChallengeTag'
import { ContainerControls } from '../ContainerControls/ContainerControls'
import { Markdown } from '../Markdown/Markdown'
import classes from './ChallengeModal.module.css'
import { LoadError } from '../LoadError/LoadError'
import { CostedHintList } from '../ChallengeRules/CostedHintList'
import { formatBytes } from '../../utils/formatBytes'
import { t } from '../../i18n'
import { AttemptsLeft, DeadlineBadge, isPastDeadline } from '../ChallengeRules/ChallengeRules'

interface ContainerSlotProps {
  gameId: number
  challenge: ChallengeDetailModel
  /** Refetch the challenge (its `context` carries the container's entry and close time). */
  refresh: () => void
}

export interface ChallengeModalProps {
  gameId: number
  /** The challenge to show; null = closed. */
  challengeId: number | null
  /** Title shown while the challenge loads. */
  title?: string
  solved: boolean
  onClose: () => void
  /** Container controls for container challenges (default: the built-in `ContainerControls`). */
  renderContainer?: (props: ContainerSlotProps) => ReactNode
}

type SubmitState =
  | { phase: 'idle' }
  | { phase: 'submitting' }
  | { phase: 'judging'; id: number; fallback: boolean }
  | { phase: 'done'; id: number; status: AnswerResult; again?: boolean }
  | { phase: 'error'; message: string }

/** Only same-origin paths and http(s) links are offered as attachments (no `javascript:` etc.). */
function safeAttachmentUrl(url: string | null): string | null {
  if (!url) return null
  if (url.startsWith('/') && !url.startsWith('//')) return url
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
  } catch {
    return null
  }
}

const defaultContainer = ({ gameId, challenge, refresh }: ContainerSlotProps) => (
  <ContainerControls gameId={gameId} challengeId={challenge.id} context={challenge.context} onChanged={refresh} />
)

export function ChallengeModal({ gameId, challengeId, title, solved, onClose, renderContainer = defaultContainer }: ChallengeModalProps) {
  const opened = challengeId !== null
  const { data, error, isLoading, refetch: revalidate } = useQuery({
    queryKey: queryKeys.game.challenge(gameId, challengeId ?? 0),
    queryFn: challengeId === null ? skipToken : () => gameApi.challenge(gameId, challengeId),
    refetchInterval: false,
  })
  const challenge = data && data.id === challengeId ? data : undefined
  const attachment = safeAttachmentUrl(challenge?.context.url ?? null)
  const local = attachment?.startsWith('/') ?? false
  // `hints` ends with the unlocked costed hints, which the costed list shows itself.
  const freeHints = (challenge?.hints ?? []).slice(0, Math.max(0, (challenge?.hints?.length ?? 0) - (challenge?.costedHints ?? []).filter((h) => h.unlocked).length))

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={
        <Group gap="xs">
          {challenge && <ChallengeTagBadge tag={challenge.tag} />}
          <Text component="span" fw={700} size="lg" data-testid="challenge-modal-title">
            {challenge?.title ?? title ?? ''}
          </Text>
        </Group>
      }
      data-testid="challenge-modal"
    >
      {opened && (
        <Stack gap="md">
          {!challenge && isLoading && (
            <Stack gap="xs">
              <Skeleton height={16} />
              <Skeleton height={16} width="80%" />
              <Skeleton height={16} width="60%" />
            </Stack>
          )}
          {!challenge && error && (
            <LoadError error={error} />
          )}
          {challenge && (
            <>
              <Group justify="space-between">
                <Text ff="monospace" fw={700} size="lg" data-testid="challenge-modal-score">
                  {t('{{value}} 分', { value: challenge.score })}
                </Text>
                <DeadlineBadge deadline={challenge.deadline} />
                {solved && (
                  <Badge color="brand" leftSection={<IconCircleCheckFilled size={14} />} data-testid="challenge-modal-solved">
                    {t('已解出')}
                  </Badge>
                )}
              </Group>
              {challenge.content ? <Markdown source={challenge.content} testId="challenge-content" /> : <Text c="dimmed">{t('（无题目描述）')}</Text>}
              {freeHints.length > 0 && (
                <Alert variant="light" color="yellow" icon={<IconBulb size={18} />} title={t('提示')} data-testid="challenge-hints">
                  <List size="sm" spacing={4}>
                    {freeHints.map((hint, i) => (
                      <List.Item key={i}>
                        <Markdown source={hint} testId="challenge-hint" />
                      </List.Item>
                    ))}
                  </List>
                </Alert>
              )}
              <CostedHintList gameId={gameId} challenge={challenge} />
              {attachment && (
                <Group gap="xs">
                  <Button
                    component="a"
                    href={attachment}
                    target={local ? undefined : '_blank'}
                    rel="noopener noreferrer"
                    download={local ? '' : undefined}
                    variant="light"
                    leftSection={local ? <IconDownload size={16} /> : <IconExternalLink size={16} />}
                    data-testid="challenge-attachment"
                  >
                    {local ? t('下载附件') : t('打开附件链接')}
                  </Button>
                  {challenge.context.fileSize !== null && (
                    <Text size="sm" c="dimmed" data-testid="challenge-attachment-size">
                      {formatBytes(challenge.context.fileSize)}
                    </Text>
                  )}
                </Group>
              )}
              {isContainerType(challenge.type) && (
                <div data-testid="challenge-container-slot">{renderContainer({ gameId, challenge, refresh: () => void revalidate() })}</div>
              )}
              <Divider />
              <FlagForm
                key={challenge.id}
                gameId={gameId}
                challengeId={challenge.id}
                title={challenge.title}
                alreadySolved={solved}
                rules={{ limit: challenge.limit ?? 0, attempts: challenge.attempts ?? 0, deadline: challenge.deadline ?? null }}
                onRefused={() => void revalidate()}
                onAccepted={isContainerType(challenge.type) ? () => void releaseContainer(gameId, challenge.id, challenge.context.instanceEntry, revalidate) : undefined}
              />
            </>
          )}
        </Stack>
      )}
    </Modal>
  )
}

const RESULT_TEXT: Record<Exclude<AnswerResult, 'FlagSubmitted' | 'Accepted' | 'CheatDetected'>, { title: string; message: string }> = {
  WrongAnswer: { title: t('答案错误'), message: t('flag 不正确，再试试吧') },
  NotFound: { title: t('实例未知'), message: t('未找到你的队伍的题目实例，请刷新后重试') },
}

/**
 * A solved container challenge needs its instance no more: destroy it (as GZ::CTF's client does),
 * so the team's container slot is free at once — once more after the contract's cooldown when the
 * container was started or prolonged a moment ago. The controls learn it from the push or the refetch.
 */
async function releaseContainer(gameId: number, challengeId: number, entry: string | null, refresh: () => Promise<unknown>): Promise<void> {
  const pushed = useGameStore.getState().containers[challengeId]
  const running = pushed ? pushed.reason !== 'destroyed' && pushed.entry !== null : entry !== null
  if (!running) return
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await gameApi.destroyContainer(gameId, challengeId)
      break
    } catch (error) {
      // Anything but the cooldown means it is gone already (expired, destroyed elsewhere).
      if (!(error instanceof ApiError && error.status === 429)) break
      await new Promise((resolve) => setTimeout(resolve, CONTAINER_COOLDOWN_MS))
    }
  }
  await refresh()
}

interface FlagRules {
  limit: number
  attempts: number
  deadline: string | null
}
const NO_RULES: FlagRules = { limit: 0, attempts: 0, deadline: null }

function FlagForm({
  gameId,
  challengeId,
  title,
  alreadySolved = false,
  rules = NO_RULES,
  onAccepted,
  onRefused,
}: {
  gameId: number
  challengeId: number
  title: string
  /** The team had solved it before this submission: a correct flag scores nothing new, and says so. */
  alreadySolved?: boolean
  /** The challenge rules (docs/challenge-rules.md): attempt limit, attempts used when loaded, deadline. */
  rules?: FlagRules
  onAccepted?: () => void
  /** A submission was refused (400): reload the detail, whose attempt count is the server's. */
  onRefused?: () => void
}) {
  const [flag, setFlag] = useState('')
  // Attempts counted here from the loaded count: every submission the server took is one.
  const [used, setUsed] = useState(rules.attempts)
  useEffect(() => setUsed((n) => Math.max(n, rules.attempts)), [rules.attempts])
  const closed = (rules.limit > 0 && used >= rules.limit) || isPastDeadline(rules.deadline)
  const [state, setState] = useState<SubmitState>({ phase: 'idle' })
  const [shake, setShake] = useState(0)
  const abort = useRef<AbortController | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const markSolved = useGameStore((s) => s.markSolved)

  useEffect(() => () => abort.current?.abort(), [])
  // The form appears once the challenge has loaded, after the modal's own focus handling: take the focus then.
  useEffect(() => input.current?.focus(), [challengeId])

  const submit = async () => {
    const answer = flag.trim()
    if (!answer || state.phase === 'submitting' || state.phase === 'judging') return
    abort.current?.abort()
    const controller = new AbortController()
    abort.current = controller
    setState({ phase: 'submitting' })
    let id: number
    try {
      id = await gameApi.submit(gameId, challengeId, answer)
      setUsed((n) => n + 1)
    } catch (error) {
      // A refusal may be the limit or the deadline reached meanwhile: the detail says how many are left.
      if (error instanceof ApiError && error.status === 400) onRefused?.()
      setState({ phase: 'error', message: errorMessage(error) })
      return
    }
    setState({ phase: 'judging', id, fallback: false })
    try {
      const status = await waitForSubmission(gameId, challengeId, id, {
        signal: controller.signal,
        onFallback: () => setState((s) => (s.phase === 'judging' && s.id === id ? { ...s, fallback: true } : s)),
      })
      const shown = status === 'CheatDetected' ? 'WrongAnswer' : status
      setState({ phase: 'done', id, status: shown, again: shown === 'Accepted' && alreadySolved })
      if (shown === 'Accepted' && alreadySolved) {
        setFlag('')
      } else if (shown === 'Accepted') {
        markSolved(challengeId)
        onAccepted?.()
        setFlag('')
        notifications.show({ color: 'brand', title: t('答案正确 🎉'), message: t('「{{title}}」已解出', { title }), autoClose: 5_000 })
      } else {
        setShake((n) => n + 1)
      }
    } catch (error) {
      if (controller.signal.aborted) return
      setState({ phase: 'error', message: errorMessage(error) })
    }
  }

  const busy = state.phase === 'submitting' || state.phase === 'judging'
  return (
    <Stack gap="sm">
      {state.phase === 'done' && state.status === 'Accepted' && !state.again && <Celebration />}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Group gap="xs" align="flex-start" wrap="nowrap" key={shake} className={shake > 0 ? classes.shake : undefined}>
          <TextInput
            style={{ flex: 1 }}
            placeholder="flag{...}"
            value={flag}
            onChange={(e) => setFlag(e.currentTarget.value)}
            maxLength={SUBMIT_FLAG_MAX}
            disabled={busy || closed}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            leftSection={<IconFlag size={16} />}
            aria-label={t('答案')}
            autoComplete="off"
            spellCheck={false}
            data-testid="flag-input"
            ref={input}
          />
          <AttemptsLeft limit={rules.limit} used={used} />
          <Button type="submit" loading={busy} disabled={!flag.trim() || closed} data-testid="flag-submit">
            {t('提交')}
          </Button>
        </Group>
      </form>
      <SubmitFeedback state={state} />
    </Stack>
  )
}

function SubmitFeedback({ state }: { state: SubmitState }) {
  if (state.phase === 'judging') {
    return (
      <Text size="sm" c="dimmed" data-testid="submit-result" data-status="FlagSubmitted" data-fallback={state.fallback}>
        {t('正在判题…')}{state.fallback ? t('（轮询中）') : ''}
      </Text>
    )
  }
  if (state.phase === 'error') {
    return (
      <Alert color="alert" variant="light" icon={<IconX size={16} />} data-testid="submit-result" data-status="Error">
        {state.message}
      </Alert>
    )
  }
  if (state.phase === 'done' && state.again) {
    return (
      <Alert color="brand" variant="light" icon={<IconCircleCheckFilled size={16} />} data-testid="submit-result" data-status="Accepted" data-again="true">
        {t('答案正确，但你的队伍已经解出过这道题，本次提交不再计分。')}
      </Alert>
    )
  }
  if (state.phase !== 'done' || state.status === 'Accepted') {
    return state.phase === 'done' ? <span data-testid="submit-result" data-status="Accepted" hidden /> : null
  }
  const text = RESULT_TEXT[state.status as keyof typeof RESULT_TEXT] ?? RESULT_TEXT.WrongAnswer
  return (
    <Alert color="alert" variant="light" icon={<IconX size={16} />} title={text.title} data-testid="submit-result" data-status={state.status}>
      {text.message}
    </Alert>
  )
}

const SPARK_COLORS = ['#1de9b6', '#f5c518', '#ff6767', '#4dabf7', '#b197fc', '#ffa94d']

/** A short burst for an accepted flag. */
function Celebration() {
  const sparks = useMemo(
    () =>
      Array.from({ length: 28 }, (_, i) => {
        const angle = (i / 28) * Math.PI * 2 + Math.random() * 0.3
        const distance = 80 + Math.random() * 90
        return { dx: Math.cos(angle) * distance, dy: Math.sin(angle) * distance * 0.6, color: SPARK_COLORS[i % SPARK_COLORS.length]!, delay: Math.random() * 150 }
      }),
    [],
  )
  return (
    <div className={classes.celebrate} data-testid="solve-celebration">
      {sparks.map((s, i) => (
        <span
          key={i}
          className={classes.spark}
          style={{ background: s.color, animationDelay: `${s.delay}ms`, ['--dx' as string]: `${s.dx}px`, ['--dy' as string]: `${s.dy}px` }}
        />
      ))}
      <div className={classes.celebrateTitle}>{t('🎉 答案正确')}</div>
      <Text size="sm" c="dimmed">
        {t('题目已解出，积分榜即将更新')}
      </Text>
    </div>
  )
}

