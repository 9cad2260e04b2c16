/** Envelopes and error bodies (CONTRACT §4.1). */
import { z } from 'zod'

export const RequestResponse = z.object({ title: z.string(), status: z.number().int() })
export type RequestResponse = z.infer<typeof RequestResponse>

export const requestResponseOf = <T extends z.ZodType>(data: T) =>
  z.object({ title: z.string(), data, status: z.number().int() })

export const arrayResponseOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), length: z.number().int(), total: z.number().int() })
export type ArrayResponse<T> = { data: T[]; length: number; total: number }

export const ProblemDetails = z.object({ type: z.string(), title: z.string(), status: z.number().int(), traceId: z.string() })
export type ProblemDetails = z.infer<typeof ProblemDetails>
