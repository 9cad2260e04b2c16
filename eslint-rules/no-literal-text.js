/**
 * Every text a reader sees goes through the interface's `t()` or `<Trans i18nKey>` (docs/architecture.md#languages):
 * - no Chinese (CJK) string or template anywhere in client/src outside a `t()` call;
 * - no JSX text with letters (`<Text>pts</Text>`);
 * - no literal with letters in attributes a reader sees (label, title, placeholder, …).
 * Code is not text: JSX inside <Code>/<Kbd> or under an element marked translate="no" (the HTML
 * attribute for "do not translate"), and attribute values shaped like code or addresses
 * (`flag{...}`, `https://…`, `ghcr.io/x:y`), are left alone.
 */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/
const LETTER = /\p{L}/u
const VISIBLE_ATTRIBUTES = new Set(['label', 'title', 'placeholder', 'description', 'aria-label', 'alt', 'confirmLabel', 'cancelLabel', 'emptyText', 'error', 'message', 'tooltip'])

const CODE_LIKE = /[{}/@]|:\S/
const CODE_ELEMENTS = new Set(['Code', 'Kbd', 'code', 'kbd', 'pre'])

function insideCode(node) {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type !== 'JSXElement') continue
    const opening = n.openingElement
    if (opening.name.type === 'JSXIdentifier' && CODE_ELEMENTS.has(opening.name.name)) return true
    if (opening.attributes.some((a) => a.type === 'JSXAttribute' && a.name.name === 'translate' && a.value?.value === 'no')) return true
  }
  return false
}

const isTCall = (node) =>
  node && node.type === 'CallExpression' && ((node.callee.type === 'Identifier' && node.callee.name === 't') || (node.callee.type === 'MemberExpression' && node.callee.property.name === 't'))

/** Inside the first argument of t() (the key), possibly through a conditional. */
function insideTKey(node) {
  let child = node
  let parent = node.parent
  while (parent && (parent.type === 'ConditionalExpression' || parent.type === 'LogicalExpression')) {
    child = parent
    parent = parent.parent
  }
  return isTCall(parent) && parent.arguments[0] === child
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Texts in the interface go through t() (docs/architecture.md#languages)' },
    messages: {
      cjk: 'Chinese text outside t(): wrap it in t() and add its English entry to client/src/i18n/locales/en.json.',
      jsxText: 'Text in JSX: wrap it in {t(…)}.',
      attribute: 'Literal text in the "{{name}}" attribute: pass {t(…)}.',
    },
    schema: [],
  },
  create(context) {
    const checkString = (node, value) => {
      const transKey = node.parent?.type === 'JSXAttribute' && node.parent.name.name === 'i18nKey'
      if (CJK.test(value) && !insideTKey(node) && !transKey && node.parent?.type !== 'ImportDeclaration') context.report({ node, messageId: 'cjk' })
    }
    return {
      Literal(node) {
        if (typeof node.value !== 'string') return
        if (node.parent?.type === 'JSXAttribute') {
          const name = node.parent.name.name
          if (VISIBLE_ATTRIBUTES.has(name) && LETTER.test(node.value) && !CODE_LIKE.test(node.value)) return context.report({ node, messageId: 'attribute', data: { name } })
        }
        checkString(node, node.value)
      },
      TemplateLiteral(node) {
        checkString(node, node.quasis.map((q) => q.value.cooked ?? '').join(''))
      },
      JSXText(node) {
        if (LETTER.test(node.value) && !insideCode(node)) context.report({ node, messageId: 'jsxText' })
      },
    }
  },
}
