import { useEffect, useState } from 'react'
import { Skeleton, Typography } from '@mantine/core'
import classes from './Markdown.module.css'

type Renderer = (source: string) => string

let rendererPromise: Promise<Renderer> | null = null

/** marked + DOMPurify, loaded on first use so they stay out of the entry bundle. */
function loadRenderer(): Promise<Renderer> {
  rendererPromise ??= Promise.all([import('marked'), import('dompurify')]).then(([{ marked }, { default: DOMPurify }]) => {
    return (source: string) => DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }))
  })
  return rendererPromise
}

export interface MarkdownProps {
  source: string
  className?: string
  testId?: string
}

/** Sanitised Markdown (posts, notices, challenge descriptions). */
export function Markdown({ source, className, testId }: MarkdownProps) {
  const [html, setHtml] = useState<string | null>(null)
  useEffect(() => {
    let active = true
    loadRenderer()
      .then((render) => active && setHtml(render(source)))
      .catch(() => active && setHtml(null))
    return () => {
      active = false
    }
  }, [source])
  if (html === null) return <Skeleton height={16} radius="sm" />
  return (
    <Typography className={[classes.root, className].filter(Boolean).join(' ')} data-testid={testId}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  )
}

