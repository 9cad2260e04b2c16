/**
 * The `values` of notices and game events (GZ::CTF 0.18+, docs/compatibility.md#newer-gzctf-versions): the parts of
 * the v0.17.6 `content` text that newer clients format in their own language. They are read back
 * from the text, whose templates are fixed (domain/notices/notices.ts, domain/submissions/judge.ts,
 * domain/containers/playerContainers.ts), so rows written before this existed carry them too and
 * nothing is stored twice. A text that does not match its template (a name that contains the
 * template's own separators) yields `[content]`, never an error.
 */
import { answerResultText, type AnswerResult, type EventType, type NoticeType } from '@flagwave/shared/enums'

const BLOOD = /^恭喜 (.*?) 获得 「(.*)」 的[一二三]血$/s
const NEW_CHALLENGE = /^新增了题目 「(.*)」$/s
const NEW_HINT = /^「(.*)」 更新了提示$/s
// The answer is the player's text, the title the admin's: the answer takes everything up to the
// last double space, so an answer containing one cannot move the title.
const FLAG_SUBMIT = /^\[(.+?)\] (.*) {2}(.*?)#(\d+)$/s
const CONTAINER = /^(.*)#(\d+) (?:启动|销毁)容器实例$/s
const CHEAT = /^题目 \[(.*)\] 疑似发生违规，相关队伍 \[(.*)\] 和 \[(.*)\]$/s

const resultByText = new Map(Object.entries(answerResultText).map(([name, text]) => [text, name as AnswerResult]))

export function noticeValues(type: NoticeType, content: string): string[] {
  let match: RegExpExecArray | null = null
  if (type === 'FirstBlood' || type === 'SecondBlood' || type === 'ThirdBlood') match = BLOOD.exec(content)
  else if (type === 'NewChallenge') match = NEW_CHALLENGE.exec(content)
  else if (type === 'NewHint') match = NEW_HINT.exec(content)
  return match ? match.slice(1) : [content]
}

export function eventValues(type: EventType, content: string): string[] {
  if (type === 'FlagSubmit') {
    const match = FLAG_SUBMIT.exec(content)
    const result = match ? resultByText.get(match[1]!) : undefined
    return match && result ? [result, match[2]!, match[3]!, match[4]!] : [content]
  }
  if (type === 'ContainerStart' || type === 'ContainerDestroy') {
    const match = CONTAINER.exec(content)
    return match ? [match[2]!, match[1]!] : [content]
  }
  if (type === 'CheatDetected') {
    const match = CHEAT.exec(content)
    return match ? match.slice(1) : [content]
  }
  return [content]
}
