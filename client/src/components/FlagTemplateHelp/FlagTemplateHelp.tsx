/**
 * Help and live check for a DynamicContainer flag template (docs/compatibility.md#dynamic-flags), computed with the
 * shared flag code the server uses: the placeholders [GUID], [TEAM_HASH] and [LEET], the leet
 * table, the template's leet entropy and the acceptance rule (a placeholder, or ≥ 32 bits),
 * and an example of a generated test flag.
 */
import { useMemo } from 'react'
import { Accordion, Alert, Badge, Code, Group, Stack, Table, Text } from '@mantine/core'
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react'
import {
  GUID_PLACEHOLDER,
  LEET_PREFIX,
  LEET_TABLE,
  MIN_TEMPLATE_ENTROPY,
  TEAM_HASH_PLACEHOLDER,
  TEST_FLAG,
  WEAK_TEMPLATE_MESSAGE,
  generateTestFlag,
  isAcceptableTemplate,
  leetEntropy,
} from '@flagwave/shared/flags'
import { t } from '../../i18n'

export interface TemplateCheck {
  blank: boolean
  entropy: number
  hasPlaceholder: boolean
  acceptable: boolean
}

/** The live check of a template; a blank template is acceptable (it clears the template). */
export function checkTemplate(template: string): TemplateCheck {
  const blank = template.trim() === ''
  return {
    blank,
    entropy: blank ? 0 : leetEntropy(template),
    hasPlaceholder: template.includes(GUID_PLACEHOLDER) || template.includes(TEAM_HASH_PLACEHOLDER),
    acceptable: blank || isAcceptableTemplate(template),
  }
}

/** A v4 GUID from `getRandomValues` (`crypto.randomUUID` needs a secure context). */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Summary line under the template input: entropy badge and verdict. */
export function FlagTemplateCheck({ template }: { template: string }) {
  const check = checkTemplate(template)
  const example = useMemo(() => generateTestFlag(template.trim() === '' ? null : template, { randomUuid }), [template])
  return (
    <Stack gap={6} data-testid="flag-template-check" data-acceptable={check.acceptable ? 'true' : 'false'}>
      <Group gap="xs">
        <Badge
          variant="light"
          color={check.blank ? 'gray' : check.acceptable ? 'brand' : 'alert'}
          leftSection={check.acceptable ? <IconCircleCheck size={12} /> : <IconAlertTriangle size={12} />}
          data-testid="flag-template-entropy"
        >
          {check.blank ? t('未设置模板') : t('熵 {{v0}} bits', { v0: check.entropy.toFixed(2) })}
        </Badge>
        {!check.blank && check.hasPlaceholder && (
          <Badge variant="outline" color="brand">
            {t('含占位符')}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {t('示例：')}
          <Code data-testid="flag-template-example">{example}</Code>
        </Text>
      </Group>
      {!check.acceptable && (
        <Text size="xs" c="alert" data-testid="flag-template-weak">
          {WEAK_TEMPLATE_MESSAGE}
        </Text>
      )}
    </Stack>
  )
}

const LEET_ROWS = Object.entries(LEET_TABLE)

/** The collapsible reference: placeholders, rules and the leet table. */
export function FlagTemplateHelp() {
  return (
    <Accordion variant="contained" data-testid="flag-template-help">
      <Accordion.Item value="help">
        <Accordion.Control icon={<IconInfoCircle size={16} />}>{t('flag 模板说明')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <Text size="sm">
              {t('留空时每支队伍获得')} <Code>{'flag{GUID}'}</Code> {t('形式的随机 flag；测试容器使用')} <Code>{TEST_FLAG}</Code>{t('。模板按以下规则依次匹配：')}
            </Text>
            <Table withTableBorder withColumnBorders fz="sm">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>
                    <Code>{GUID_PLACEHOLDER}</Code>
                  </Table.Td>
                  <Table.Td>{t('替换为随机 GUID（小写 8-4-4-4-12），模板其余部分保持不变。')}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>
                    <Code>{TEAM_HASH_PLACEHOLDER}</Code>
                  </Table.Td>
                  <Table.Td>{t('替换为由队伍 token、比赛的队伍哈希盐与题目 id 计算得到的 12 位十六进制哈希；模板以')} <Code>{LEET_PREFIX}</Code> {t('开头时，其余部分先进行 leet 变换。')}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>
                    <Code>{LEET_PREFIX}</Code>
                  </Table.Td>
                  <Table.Td>
                    {t('不含上述占位符时，整个模板进行 leet 变换：位于')} <Code>{'{'}</Code> {t('或')} <Code>]</Code> {t('之后、下一个')} <Code>{'}'}</Code> {t('或')} <Code>[</Code> {t('之前的字符按下表随机替换，空格变为')} <Code>_</Code>{t('。')}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <Alert variant="light" color="yellow" p="xs" icon={<IconAlertTriangle size={16} />}>
              <Text size="xs">
                {t('模板需包含')} <Code>{GUID_PLACEHOLDER}</Code> {t('或')} <Code>{TEAM_HASH_PLACEHOLDER}</Code>{t('，或 leet 熵不低于')} {MIN_TEMPLATE_ENTROPY} {t('bits，否则服务器将拒绝保存：')}
                {WEAK_TEMPLATE_MESSAGE}{t('。')}
              </Text>
            </Alert>
            <Text size="sm" fw={600}>
              {t('leet 替换表')}
            </Text>
            <Table withTableBorder withColumnBorders fz="xs" data-testid="leet-table">
              <Table.Tbody>
                {Array.from({ length: Math.ceil(LEET_ROWS.length / 6) }, (_, row) => (
                  <Table.Tr key={row}>
                    {LEET_ROWS.slice(row * 6, row * 6 + 6).map(([char, alternatives]) => (
                      <Table.Td key={char}>
                        <Code>{char}</Code> → <Code>{alternatives}</Code>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  )
}

