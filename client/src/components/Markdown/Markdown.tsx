import { useEffect, useState } from 'react'
import { Skeleton, Typography } from '@mantine/core'
import classes from './Markdown.module.css'
import { loadRenderer } from './render'

export interface MarkdownProps {
  source: string
  className?: string
  testId?: string
}

/** Sanitised Markdown with math and highlighted code (posts, notices, challenge descriptions, hints). */
export function Markdown({ source, className, testId }: MarkdownProps) {
  const [html, setHtml] = useState<string | null>(null)
  useEffect(() => {
    let active = true
    loadRenderer(source)
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

