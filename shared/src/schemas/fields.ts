/**
 * Field builders that reproduce the reference server's validation semantics
 * (docs/compatibility.md#validation-failures, #shapes): explicit required members reject null/missing/empty,
 * implicit ones reject null/missing only; messages are the contract's texts.
 */
import { z } from 'zod'
import { WIRE_DATE_PATTERN } from '../format.js'

/**
 * A string member marked [Required]: missing, null, "" or white space only → `message`
 * (.NET's RequiredAttribute rejects `string.IsNullOrWhiteSpace` values).
 */
export const requiredString = (message: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : typeMessage(issue.input, 'String')) })
    .min(1, message)
    .refine((s) => s.length === 0 || !/^\s*$/.test(s), message)

/** A non-nullable string member without [Required]: missing/null → `The {Name} field is required.`, "" allowed. */
const implicitString = (csharpName: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `The ${csharpName} field is required.` : typeMessage(issue.input, 'String')) })

/** An optional string member; null and missing both mean "not given". */
export const optionalString = () =>
  z
    .string({ error: (issue) => typeMessage(issue.input, 'String') })
    .nullish()
    .transform((v) => v ?? null)

/** The System.Text.Json style message for a value of the wrong JSON type. */
export function typeMessage(input: unknown, target: 'String' | 'Int32' | 'Int64' | 'Boolean' | 'Double'): string {
  if (input === undefined) return `The value is required.`
  return `The JSON value could not be converted to System.${target}.`
}

/** An int member: JSON number or numeric string (ASP.NET web defaults accept both). */
export const wireInt = (opts: { min?: number; max?: number; message?: string } = {}) =>
  z
    .union([z.number(), z.string().regex(/^\s*-?\d+\s*$/, { error: () => typeMessage('', 'Int32') })], { error: (issue) => typeMessage(issue.input, 'Int32') })
    .transform((v) => (typeof v === 'string' ? Number(v) : v))
    .pipe(
      z
        .number()
        .int({ error: () => 'The JSON value could not be converted to System.Int32.' })
        .min(opts.min ?? -2147483648, opts.message ?? typeMessage('', 'Int32'))
        .max(opts.max ?? 2147483647, opts.message ?? typeMessage('', 'Int32')),
    )

/** A long member (64-bit): JS numbers are safe up to 2^53, far above every contract value. */
export const wireLong = () =>
  z
    .union([z.number(), z.string().regex(/^\s*-?\d+\s*$/, { error: () => typeMessage('', 'Int64') })], { error: (issue) => typeMessage(issue.input, 'Int64') })
    .transform((v) => (typeof v === 'string' ? Number(v) : v))
    .pipe(
      z
        .number()
        .int({ error: () => typeMessage('', 'Int64') })
        .min(Number.MIN_SAFE_INTEGER, typeMessage('', 'Int64'))
        .max(Number.MAX_SAFE_INTEGER, typeMessage('', 'Int64')),
    )

export const wireDouble = (opts: { min?: number; max?: number; message?: string } = {}) =>
  z
    .union([z.number(), z.string().regex(/^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/, { error: () => typeMessage('', 'Double') })], { error: (issue) => typeMessage(issue.input, 'Double') })
    .transform((v) => (typeof v === 'string' ? Number(v) : v))
    .pipe(z.number().min(opts.min ?? -Number.MAX_VALUE, opts.message).max(opts.max ?? Number.MAX_VALUE, opts.message))

export const wireBool = () => z.boolean({ error: (issue) => typeMessage(issue.input, 'Boolean') })

/** ISO-8601 date input with `Z` or an offset; yields a Date. */
const DATE_UNREADABLE = 'The JSON value could not be converted to System.DateTimeOffset.'
/** The range of a JavaScript date, in milliseconds either side of the epoch. */
const MAX_DATE_MS = 8.64e15

/**
 * A request time: ISO 8601 with an offset (v0.17.6), or Unix milliseconds as an integer, which
 * GZ::CTF 1.1+ clients send (docs/compatibility.md#newer-gzctf-versions). Both forms, always.
 */
export const wireDate = () =>
  z
    .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined || issue.input === null ? 'The value is required.' : DATE_UNREADABLE) })
    .refine(
      (v) =>
        typeof v === 'number'
          ? Number.isSafeInteger(v) && Math.abs(v) <= MAX_DATE_MS
          : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
      { message: DATE_UNREADABLE },
    )
    .transform((v) => new Date(v))

/** .NET [EmailAddress]: exactly one '@', neither first nor last. */
export const isEmailLike = (s: string): boolean => {
  const at = s.indexOf('@')
  return at > 0 && at === s.lastIndexOf('@') && at < s.length - 1
}

/**
 * .NET [Phone]: after dropping '+' and an extension, digits plus space - . ( ) with at least one digit.
 * Trailing white space is trimmed before the extension is looked for: an unanchored leading `\s*`
 * in that pattern made a long run of spaces cost quadratic time (seconds for 64 KB).
 */
export const isPhoneLike = (s: string): boolean => {
  const stripped = s.replace(/\+/g, '').trimEnd().replace(/(x|ext\.?)\s*\d+$/i, '')
  return /\d/.test(stripped) && /^[\d\s\-.()]+$/.test(stripped)
}

/* ------------------------------------------------------------------------------------------
 * Builders used by the shape modules (users, config, teams, posts, games, challenges, play…)
 * ---------------------------------------------------------------------------------------- */

/** A date member of a response: ISO-8601 with an explicit numeric offset (docs/compatibility.md#dates). */
export const wireDateOut = () => z.string().regex(WIRE_DATE_PATTERN)

/** An int (or long) member of a response. */
export const intOut = () => z.number().int()

/**
 * A request member whose `null` and omission both mean "not given / keep": yields `null` then.
 * Wrong JSON types still fail with the inner schema's message.
 */
export const keep = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => (v ?? null) as z.output<T> | null)

/** An optional string member with a maximum length (null/missing → null, so no check). */
export const optionalMaxString = (max: number, message: string) =>
  optionalString().refine((v) => v === null || v.length <= max, message)

/**
 * A non-nullable string member with an initializer (`= string.Empty` in C#): omitted → `fallback`,
 * explicit null → `The {Name} field is required.`.
 */
export const defaultedString = (csharpName: string, fallback = '') => implicitString(csharpName).default(fallback)

const LIST_OF_STRING = 'Collections.Generic.List`1[System.String]'

/** A `List<string>` member: array of JSON strings. Missing/null handling is left to the caller. */
export const stringArray = (csharpName?: string) =>
  z.array(z.string({ error: (issue) => typeMessage(issue.input, 'String') }), {
    error: (issue) =>
      (issue.input === undefined || issue.input === null) && csharpName
        ? `The ${csharpName} field is required.`
        : `The JSON value could not be converted to System.${LIST_OF_STRING}.`,
  })

/** An int member with a [Range] check: conversion errors first, then `message` when out of range. */
export const intInRange = (min: number, max: number, message: string) => wireInt().pipe(z.number().min(min, message).max(max, message))
