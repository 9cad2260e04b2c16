import { useState } from 'react'
import { ActionIcon, Code, Group, Tooltip } from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

/**
 * Copy text to the clipboard: the async Clipboard API where the page may use it, else a hidden
 * textarea and `execCommand('copy')` (plain HTTP origins, older browsers). Resolves to success.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // fall through to the legacy path
  }
  try {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.appendChild(area)
    area.select()
    const ok = document.execCommand('copy')
    area.remove()
    return ok
  } catch {
    return false
  }
}

export interface CopyableTextProps {
  value: string
  /** Notification shown after copying. */
  copiedMessage?: string
  testId?: string
  copyTestId?: string
}

/** A value in monospace with a copy button (invite codes, generated passwords). */
export function CopyableText({ value, copiedMessage = t('已复制到剪贴板'), testId, copyTestId }: CopyableTextProps) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    if (await copyToClipboard(value)) {
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
      notifySuccess(copiedMessage)
    } else {
      notifyError(new Error(t('复制失败，请手动选择文本复制')))
    }
  }
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap', userSelect: 'all' }} data-testid={testId}>
        {value}
      </Code>
      <Tooltip label={copied ? t('已复制') : t('复制')} withArrow>
        <ActionIcon variant="light" size="lg" onClick={() => void copy()} aria-label={t('复制')} data-testid={copyTestId}>
          {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  )
}
