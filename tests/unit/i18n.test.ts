/**
 * The interface's dictionaries (docs/architecture.md#languages): every key the client passes to
 * `t()` has its English entry with the same placeholders, no English entry is left over, the
 * shared schemas' Chinese validation messages (shown through `apiMessage`) are translated, and the
 * lint rule that keeps literal text out of components reports what it must.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { Linter } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
import noLiteralText from '../../eslint-rules/no-literal-text.js'
import { answerResultText } from '../../shared/src/enums.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CLIENT = path.join(ROOT, 'client/src')
const en = JSON.parse(fs.readFileSync(path.join(CLIENT, 'i18n/locales/en.json'), 'utf8')) as Record<string, string>
const CJK = /[\u4e00-\u9fff]/

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : []
  })
}

/** String-literal keys of `t(…)` calls (TypeScript's parser, so escapes and newlines are exact). */
function clientKeys(): Set<string> {
  const keys = new Set<string>()
  for (const file of sourceFiles(CLIENT)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
        const [first] = node.arguments
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) keys.add(first.text)
      }
      // <Trans i18nKey="…"> of react-i18next
      if (ts.isJsxAttribute(node) && node.name.getText() === 'i18nKey' && node.initializer && ts.isStringLiteral(node.initializer)) keys.add(node.initializer.text)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return keys
}

/** Fixed Chinese messages of the shared zod schemas (the ones a form can show). */
function sharedMessages(): Set<string> {
  const messages = new Set<string>()
  for (const file of sourceFiles(path.join(ROOT, 'shared/src/schemas'))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CJK.test(node.text)) messages.add(node.text)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return messages
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()

describe('dictionaries', () => {
  const keys = clientKeys()
  const needed = new Set([...keys, ...sharedMessages(), ...Object.values(answerResultText)])

  it('finds the keys of the interface', () => {
    expect(keys.size).toBeGreaterThan(500)
    expect(keys).toContain('登录')
  })

  it('has an English entry for every key, with the same placeholders', () => {
    const missing = [...needed].filter((key) => !(key in en) || !en[key])
    expect(missing).toEqual([])
    const mismatched = [...needed].filter((key) => JSON.stringify(placeholders(key)) !== JSON.stringify(placeholders(en[key] ?? '')))
    expect(mismatched).toEqual([])
  })

  it('has no English entry that nothing uses', () => {
    expect(Object.keys(en).filter((key) => !needed.has(key))).toEqual([])
  })

  it('has no Chinese left in the English texts', () => {
    expect(Object.entries(en).filter(([, value]) => CJK.test(value))).toEqual([])
  })
})

describe('the no-literal-text lint rule', () => {
  const linter = new Linter({ configType: 'flat' })
  const lint = (code: string) =>
    linter
      .verify(
        code,
        [
          {
            files: ['**/*.tsx'],
            languageOptions: { parser: tseslint.parser as Linter.Parser, parserOptions: { ecmaFeatures: { jsx: true } } },
            plugins: { flagwave: { rules: { 'no-literal-text': noLiteralText } } },
            rules: { 'flagwave/no-literal-text': 'error' },
          },
        ],
        'component.tsx',
      )
      .map((m) => m.messageId)

  it('reports Chinese outside t(), JSX text and visible attributes', () => {
    expect(lint(`const a = '你好'`)).toEqual(['cjk'])
    expect(lint('const a = `共 ${n} 个`')).toEqual(['cjk'])
    expect(lint(`const a = <Text>pts</Text>`)).toEqual(['jsxText'])
    expect(lint(`const a = <Input placeholder="Your name" />`)).toEqual(['attribute'])
  })

  it('accepts t() keys, code and addresses', () => {
    expect(lint(`const a = t('你好')`)).toEqual([])
    expect(lint(`const a = t(ok ? '是' : '否')`)).toEqual([])
    expect(lint(`const a = <Trans i18nKey="请先<0>登录</0>" components={[<a key="a" />]} />`)).toEqual([])
    expect(lint(`const a = <Code>flag</Code>`)).toEqual([])
    expect(lint(`const a = <td translate="no">sha</td>`)).toEqual([])
    expect(lint(`const a = <Input placeholder="flag{...}" data-testid="x" />`)).toEqual([])
  })
})
