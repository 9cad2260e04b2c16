/**
 * The Markdown renderer behind <Markdown>: marked (GFM, line breaks) + DOMPurify, with KaTeX math
 * (`$…$`, `$$…$$`) and highlight.js code blocks. Every part is a dynamic import, and KaTeX and
 * highlight.js load only for a source that has math or a fenced code block, so the first page's
 * bundle carries none of them. The HTML is sanitised after math and highlighting, as before.
 */
import type { MarkedExtension, Tokens } from 'marked'

type Renderer = (source: string) => string

/** `$$…$$` or `$…$` (not `$ 5`, not `5$`, not `$1 and $2` priced text: the closing `$` is not followed by a digit). */
const INLINE_MATH = /^(\$\$)([^$]+?)\$\$|^\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/
/** A display block: `$$` opening a paragraph, up to the next `$$`. */
const BLOCK_MATH = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/
const FENCE = /(^|\n) {0,3}(```|~~~)/
const HAS_MATH = /\$/

type Katex = typeof import('katex').default
type Hljs = typeof import('highlight.js/lib/core').default

interface MathToken extends Tokens.Generic {
  text: string
  display: boolean
}

function mathExtension(katex: Katex): MarkedExtension {
  const render = (token: Tokens.Generic) => {
    const { text, display } = token as MathToken
    return katex.renderToString(text.trim(), { displayMode: display, throwOnError: false, output: 'htmlAndMathml', trust: false, maxExpand: 500, maxSize: 20 })
  }
  return {
    extensions: [
      {
        name: 'mathBlock',
        level: 'block',
        start: (src) => src.match(/(^|\n) {0,3}\$\$/)?.index,
        tokenizer(src) {
          const match = BLOCK_MATH.exec(src)
          if (match) return { type: 'mathBlock', raw: match[0], text: match[1], display: true }
          return undefined
        },
        renderer: (token) => `<div class="math-display">${render(token)}</div>\n`,
      },
      {
        name: 'math',
        level: 'inline',
        start: (src) => {
          const index = src.indexOf('$')
          return index < 0 ? undefined : index
        },
        tokenizer(src) {
          const match = INLINE_MATH.exec(src)
          if (!match) return undefined
          return match[1] ? { type: 'math', raw: match[0], text: match[2], display: true } : { type: 'math', raw: match[0], text: match[3], display: false }
        },
        renderer: render,
      },
    ],
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function codeExtension(hljs: Hljs): MarkedExtension {
  return {
    renderer: {
      code({ text, lang }) {
        const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
        const known = language && hljs.getLanguage(language) ? language : null
        const body = known ? hljs.highlight(text, { language: known, ignoreIllegals: true }).value : escapeHtml(text)
        return `<pre><code class="hljs${known ? ` language-${known}` : ''}">${body}</code></pre>\n`
      },
    },
  }
}

let katexPromise: Promise<Katex> | null = null
function loadKatex(): Promise<Katex> {
  katexPromise ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([module]) => module.default)
  return katexPromise
}

let hljsPromise: Promise<Hljs> | null = null
/** highlight.js core with the languages CTF statements use most. */
function loadHljs(): Promise<Hljs> {
  hljsPromise ??= import('./languages').then((module) => module.highlighter())
  return hljsPromise
}

let basePromise: Promise<[typeof import('marked'), typeof import('dompurify').default]> | null = null
function loadBase() {
  basePromise ??= Promise.all([import('marked'), import('dompurify').then((m) => m.default)])
  return basePromise
}

/** A renderer able to show `source` (loads KaTeX and highlight.js only when it needs them). */
export async function loadRenderer(source: string): Promise<Renderer> {
  const [[{ Marked }, DOMPurify], katex, hljs] = await Promise.all([
    loadBase(),
    HAS_MATH.test(source) ? loadKatex() : null,
    FENCE.test(source) ? loadHljs() : null,
  ])
  const marked = new Marked({ async: false, gfm: true, breaks: true })
  if (katex) marked.use(mathExtension(katex))
  if (hljs) marked.use(codeExtension(hljs))
  return (text: string) => DOMPurify.sanitize(marked.parse(text, { async: false }))
}
