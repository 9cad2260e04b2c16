import { useState } from 'react'
import { Alert, Badge, Button, Code, Group, Image, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { TwoFactorEnrolmentModel } from '@flagwave/shared/schemas/twoFactor'
import { twoFactorApi } from '../../api/security'
import { queryKeys } from '../../api/queryKeys'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

/** Every string of the two-factor section, in one place. */
const STRINGS = {
  enabled: t('已启用'),
  disabled: t('未启用'),
  required: t('站点要求所有受影响的账户启用两步验证，启用前无法使用其他功能。'),
  intro: t('登录时除密码外还需输入身份验证器应用（如 Google Authenticator、Microsoft Authenticator）生成的验证码。'),
  start: t('启用两步验证'),
  scan: t('使用身份验证器应用扫描二维码，或手动输入密钥：'),
  code: t('验证码'),
  confirm: t('确认启用'),
  confirmed: t('两步验证已启用'),
  failed: t('操作失败'),
  recoveryTitle: t('恢复码'),
  recoveryHint: t('每个恢复码只能使用一次。请妥善保存：它们只显示这一次。'),
  recoveryDone: t('我已保存恢复码'),
  codesLeft: (n: number) => t('剩余 {{n}} 个恢复码', { n }),
  remembered: t('此设备已被记住'),
  password: t('密码'),
  proofCode: t('验证码或恢复码'),
  regenerate: t('重新生成恢复码'),
  regenerated: t('恢复码已重新生成'),
  forget: t('忘记所有受信任设备'),
  forgotten: t('已忘记所有受信任设备'),
  disable: t('关闭两步验证'),
  disabledDone: t('两步验证已关闭'),
}

/** Run one action at a time: `busy` while it runs, its error notified, `after` once it succeeded. */
function useAction(after: () => void = () => {}) {
  const [busy, setBusy] = useState(false)
  const act = async (action: () => Promise<void>) => {
    setBusy(true)
    try {
      await action()
      after()
    } catch (error) {
      notifyError(error, STRINGS.failed)
    } finally {
      setBusy(false)
    }
  }
  return { busy, act }
}

function Enrolment({ onDone }: { onDone: (codes: string[]) => void }) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolmentModel | null>(null)
  const [code, setCode] = useState('')
  const { busy, act } = useAction()
  if (!enrolment) {
    return (
      <Group>
        <Button loading={busy} onClick={() => act(async () => setEnrolment(await twoFactorApi.enrol()))} data-testid="2fa-start">
          {STRINGS.start}
        </Button>
      </Group>
    )
  }
  return (
    <Stack gap="sm" data-testid="2fa-enrolment">
      <Text size="sm">{STRINGS.scan}</Text>
      <Group align="flex-start" gap="lg">
        <Image src={enrolment.qrCode} w={180} h={180} alt={t('QR')} data-testid="2fa-qr" />
        <Code data-testid="2fa-secret">{enrolment.secret}</Code>
      </Group>
      <Group align="flex-end" gap="sm">
        <TextInput label={STRINGS.code} value={code} onChange={(e) => setCode(e.currentTarget.value)} autoComplete="one-time-code" data-testid="2fa-confirm-code" />
        <Button
          loading={busy}
          disabled={code.trim() === ''}
          onClick={() =>
            act(async () => {
              const { recoveryCodes } = await twoFactorApi.confirm(code.trim())
              notifySuccess(STRINGS.confirmed)
              onDone(recoveryCodes)
            })
          }
          data-testid="2fa-confirm"
        >
          {STRINGS.confirm}
        </Button>
      </Group>
    </Stack>
  )
}

function RecoveryCodes({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  return (
    <Alert color="yellow" title={STRINGS.recoveryTitle} data-testid="2fa-recovery-codes">
      <Stack gap="sm">
        <Text size="sm">{STRINGS.recoveryHint}</Text>
        <SimpleGrid cols={2} spacing={4}>
          {codes.map((c) => (
            <Code key={c} data-testid="2fa-recovery-code">
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button size="xs" onClick={onClose} data-testid="2fa-recovery-close">
            {STRINGS.recoveryDone}
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}

function Manage({ onCodes, onChanged }: { onCodes: (codes: string[]) => void; onChanged: () => void }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const { busy, act } = useAction(() => {
    setPassword('')
    setCode('')
    onChanged()
  })
  const proof = () => ({ password, code: code.trim() })
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm" grow>
        <PasswordInput label={STRINGS.password} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="current-password" data-testid="2fa-password" />
        <TextInput label={STRINGS.proofCode} value={code} onChange={(e) => setCode(e.currentTarget.value)} autoComplete="one-time-code" data-testid="2fa-proof-code" />
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="subtle" loading={busy} onClick={() => act(async () => (await twoFactorApi.forgetDevices(), notifySuccess(STRINGS.forgotten)))} data-testid="2fa-forget">
          {STRINGS.forget}
        </Button>
        <Button
          variant="light"
          loading={busy}
          disabled={!password || !code.trim()}
          onClick={() => act(async () => (onCodes((await twoFactorApi.regenerate(proof())).recoveryCodes), notifySuccess(STRINGS.regenerated)))}
          data-testid="2fa-regenerate"
        >
          {STRINGS.regenerate}
        </Button>
        <Button
          color="alert"
          variant="light"
          loading={busy}
          disabled={!password || !code.trim()}
          onClick={() => act(async () => (await twoFactorApi.disable(proof()), notifySuccess(STRINGS.disabledDone)))}
          data-testid="2fa-disable"
        >
          {STRINGS.disable}
        </Button>
      </Group>
    </Stack>
  )
}

/** Profile section: two-factor status, QR enrolment, recovery codes (shown once), remembered devices, disabling. */
export function TwoFactor() {
  const queryClient = useQueryClient()
  const { data: status } = useQuery({ queryKey: queryKeys.twoFactor, queryFn: twoFactorApi.status })
  const [codes, setCodes] = useState<string[] | null>(null)
  const reload = () => void queryClient.invalidateQueries({ queryKey: queryKeys.twoFactor })
  if (!status) return null
  return (
    <Stack gap="md" data-testid="2fa-section">
      <Group gap="xs">
        <Badge color={status.enabled ? 'teal' : 'gray'} data-testid="2fa-status">
          {status.enabled ? STRINGS.enabled : STRINGS.disabled}
        </Badge>
        {status.enabled && <Text size="sm" c="dimmed">{STRINGS.codesLeft(status.recoveryCodesLeft)}</Text>}
        {status.deviceRemembered && <Badge variant="light">{STRINGS.remembered}</Badge>}
      </Group>
      {status.required && !status.enabled && (
        <Alert color="orange" data-testid="2fa-required">
          {STRINGS.required}
        </Alert>
      )}
      {codes && <RecoveryCodes codes={codes} onClose={() => setCodes(null)} />}
      {status.enabled ? (
        <Manage onCodes={setCodes} onChanged={reload} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {STRINGS.intro}
          </Text>
          <Enrolment
            onDone={(recoveryCodes) => {
              setCodes(recoveryCodes)
              reload()
            }}
          />
        </>
      )}
    </Stack>
  )
}
