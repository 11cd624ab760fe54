import type { Labelled, Sort } from '../catalog/enums'
import { DEFAULT_SORT, SORT_ORDERS } from '../catalog/enums'
import { MAX_PAGE } from '../catalog/filters'

// Reading listing queries (docs/pages.md, "Listing rules"): values are case-insensitive, lists may
// be repeated or comma-separated, empty form fields count as absent, a repeated identical value is
// one value, and anything else malformed is an error that the route answers with a 400.

export type ParseResult<T> = { ok: true; query: T } | { ok: false; error: string }

export interface QueryReader {
  /** The value of `name` among `options`, or null when absent. */
  pick<T>(name: string, options: readonly T[], valueOf: (option: T) => string): T | null
  /** The values of `name` as a bitmask over `list`, matched by slug. */
  mask(name: string, list: readonly Labelled[]): number
  /** The values of `name` among `allowed`, in `allowed`'s order (for lists too long for a mask). */
  list(name: string, allowed: readonly string[]): string[]
  /** The one raw value of `name`, or null; the caller validates it. */
  raw(name: string): string | null
  /** The error to throw for a value of `name` the caller finds invalid. */
  invalid(name: string, value: string): Error
  sort(): Sort
  page(): number
}

class QueryError extends Error {}

/** A parameter's values: each one given, split at commas, trimmed, lowercase, once each. */
function valuesOf(params: URLSearchParams, name: string): string[] {
  return [
    ...new Set(
      params
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim().toLowerCase())
        .filter((v) => v !== ''),
    ),
  ]
}

const invalid = (name: string, value: string) =>
  new QueryError(`"${value.slice(0, 40)}" is not a valid value for "${name}"`)

export function readQuery<T>(
  params: URLSearchParams,
  read: (reader: QueryReader) => T,
): ParseResult<T> {
  const values = (name: string) => valuesOf(params, name)
  const one = (name: string): string | null => {
    const vs = values(name)
    if (vs.length > 1) throw new QueryError(`"${name}" takes one value`)
    return vs[0] ?? null
  }
  const reader: QueryReader = {
    pick(name, options, valueOf) {
      const value = one(name)
      if (value === null) return null
      const found = options.find((o) => valueOf(o) === value)
      if (found === undefined) throw invalid(name, value)
      return found
    },
    mask(name, list) {
      let mask = 0
      for (const v of values(name)) {
        const i = list.findIndex((item) => item.slug === v)
        if (i < 0) throw invalid(name, v)
        mask |= 2 ** i
      }
      return mask
    },
    list(name, allowed) {
      const vs = values(name)
      for (const v of vs) if (!allowed.includes(v)) throw invalid(name, v)
      return allowed.filter((a) => vs.includes(a))
    },
    raw: one,
    invalid,
    sort() {
      return reader.pick('sort', SORT_ORDERS, (s) => s.slug)?.slug ?? DEFAULT_SORT
    },
    page() {
      const page = one('page')
      if (page === null) return 1
      if (!/^[1-9][0-9]{0,5}$/.test(page) || Number(page) > MAX_PAGE) throw invalid('page', page)
      return Number(page)
    },
  }
  try {
    return { ok: true, query: read(reader) }
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message }
    throw error
  }
}

/** The slugs of a bitmask, comma-separated in list order. */
export function slugsOf(mask: number, list: readonly Labelled[]): string {
  return list
    .filter((_, i) => mask & (2 ** i))
    .map((item) => item.slug)
    .join(',')
}

/** A canonical query string ("" or "?…"): empty values dropped, names in alphabetical order. */
export function searchOf(pairs: Record<string, string | number | null>): string {
  const kept = Object.entries(pairs)
    .filter((pair): pair is [string, string | number] => pair[1] !== null && pair[1] !== '')
    .sort(([a], [b]) => (a < b ? -1 : 1))
  return kept.length ? `?${kept.map(([k, v]) => `${k}=${v}`).join('&')}` : ''
}
