import { useMemo, useState } from 'react'
import { Alert, Code, List, Modal, Stack, Text, Textarea } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import type { z } from 'zod'
import { UserCreateModel } from '@flagwave/shared/schemas/users'
import { adminApi } from '../../api/admin'
import { notifySuccess } from '../../utils/notify'
import { ModalFooter } from '../ModalFooter/ModalFooter'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

type CreateInput = z.input<typeof UserCreateModel>

const FIELDS = ['userName', 'password', 'email', 'realName', 'stdNumber', 'phone', 'teamName'] as const

export interface ParsedBatch {
  users: CreateInput[]
  /** `第 N 行：message` for every rejected line. */
  errors: string[]
}

/**
 * Parse pasted CSV-like lines: `用户名,密码,邮箱[,真实姓名,学工号,手机号,队伍名]`, separated by
 * commas or tabs (spreadsheet paste). Empty lines and `#` comments are skipped; every line is
 * checked with the shared `UserCreateModel`, so the messages are the server's.
 */
function parseUserLines(text: string): ParsedBatch {
  const users: CreateInput[] = []
  const errors: string[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim()
    if (!line || line.startsWith('#')) return
    const cells = line.split(line.includes('\t') ? '\t' : ',').map((cell) => cell.trim())
    if (cells.length > FIELDS.length) {
      errors.push(t('第 {{v0}} 行：字段过多（最多 {{length}} 个）', { v0: index + 1, length: FIELDS.length }))
      return
    }
    const entry: Record<string, string> = {}
    FIELDS.forEach((field, i) => {
      if (cells[i]) entry[field] = cells[i]
    })
    const result = UserCreateModel.safeParse(entry)
    if (!result.success) errors.push(t('第 {{v0}} 行：{{v1}}', { v0: index + 1, v1: result.error.issues[0]?.message ?? t('格式错误') }))
    else users.push(entry as CreateInput)
  })
  return { users, errors }
}

/** POST /api/admin/users from pasted lines: one transaction; equal team names form one new team. */
export function UserBatchCreate({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: () => void }) {
  const [text, setText] = useState('')
  const { busy, run } = useAction()
  const [debounced] = useDebouncedValue(text, 200)
  const parsed = useMemo(() => parseUserLines(debounced), [debounced])

  const submit = async () => {
    const { users, errors } = parseUserLines(text)
    if (errors.length || users.length === 0) return
    await run(t('批量添加失败'), async () => {
      await adminApi.users.create(users)
      notifySuccess(t('已添加 {{length}} 个用户', { length: users.length }))
      setText('')
      onCreated()
      onClose()
    })
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('批量添加用户')} size="xl" data-testid="user-batch-modal">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('每行一个用户，逗号或制表符分隔：')}<Code>{t('用户名,密码,邮箱[,真实姓名,学工号,手机号,队伍名]')}</Code>{t('。已存在的用户名或邮箱会被更新（包括密码）； 队伍名相同的用户会组成一支新队伍，第一位为队长。')}
        </Text>
        <Textarea
          autosize
          minRows={8}
          maxRows={18}
          placeholder={t('alice,Passw0rd!,alice@example.com,爱丽丝,2023001,,Red\nbob,Passw0rd!,bob@example.com,,,,Red')}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          data-testid="user-batch-text"
        />
        {parsed.errors.length > 0 ? (
          <Alert color="alert" variant="light" title={t('{{length}} 行有误', { length: parsed.errors.length })} data-testid="user-batch-errors">
            <List size="sm">
              {parsed.errors.slice(0, 10).map((error) => (
                <List.Item key={error}>{error}</List.Item>
              ))}
              {parsed.errors.length > 10 && <List.Item>……</List.Item>}
            </List>
          </Alert>
        ) : (
          <Text size="sm" c="dimmed" data-testid="user-batch-count">
            {parsed.users.length > 0 ? t('将添加 {{length}} 个用户', { length: parsed.users.length }) : t('尚未输入用户')}
          </Text>
        )}
        <ModalFooter
          onCancel={onClose}
          confirmLabel={t('添加')}
          onConfirm={() => void submit()}
          loading={busy}
          disabled={parsed.errors.length > 0 || parsed.users.length === 0 || text !== debounced}
          confirmTestId="user-batch-submit"
        />
      </Stack>
    </Modal>
  )
}
