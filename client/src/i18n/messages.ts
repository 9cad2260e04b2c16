/**
 * Messages written by the API (validation messages of the shared zod schemas, error titles) in
 * the interface language. The API keeps the contract's texts — some English (`The UserName field
 * is required.`), most Chinese — and forms validate with the same schemas, so one mapping serves
 * both: fixed texts are dictionary keys, the contract's parameterised English texts are patterns.
 * A text that matches nothing is shown as it came (docs/architecture.md#languages).
 */
import { t } from './index'

const PATTERNS: [RegExp, (m: RegExpMatchArray) => string][] = [
  // The contract's half-English title for a wrong team invite code.
  [/^Code 无效$/, () => t('邀请码无效')],
  [/^The value is required\.$/, () => t('此项为必填项')],
  [/^The \w+ field is required\.$/, () => t('此项为必填项')],
  [/^The field \w+ must be a string or array type with a minimum length of '(\d+)'\.$/, (m) => t('至少 {{min}} 个字符', { min: m[1] })],
  [/^The field \w+ must be a string or array type with a maximum length of '(\d+)'\.$/, (m) => t('至多 {{max}} 个字符', { max: m[1] })],
  [/^The field \w+ must not be negative\.$/, () => t('不能为负数')],
  [/^The field \w+ must be between (\S+) and (\S+)\.$/, (m) => t('必须介于 {{min}} 与 {{max}} 之间', { min: m[1], max: m[2] })],
  [/^\w+ 的值必须介于 (\S+) - (\S+)$/, (m) => t('必须介于 {{min}} 与 {{max}} 之间', { min: m[1], max: m[2] })],
  [/^The JSON value could not be converted to /, () => t('格式错误')],
  [/^The value '(.*)' is not valid/, (m) => t('“{{value}}” 无效', { value: m[1] })],
  [/^令牌名称不能超过 (\d+) 个字符$/, (m) => t('至多 {{max}} 个字符', { max: m[1] })],
  [/^列表至多 (\d+) 个字符$/, (m) => t('至多 {{max}} 个字符', { max: m[1] })],
  [/^有效期不能超过 (\d+) 天$/, (m) => t('至多 {{max}} 天', { max: m[1] })],
]

export function apiMessage(text: string): string {
  for (const [pattern, render] of PATTERNS) {
    const match = text.match(pattern)
    if (match) return render(match)
  }
  // Unknown texts pass unchanged; no interpolation of what the server wrote.
  return t(text, { defaultValue: text, skipInterpolation: true })
}
