import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { isDataPath } from '../urls/data-prefix'
import { normalisedPath } from '../urls/normalised-path'

export const MAX_PATH_BYTES = 2048
export const MAX_QUERY_BYTES = 4096

export type Verdict =
  { kind: 'ok' } | { kind: 'bad-request'; reason: string } | { kind: 'redirect'; location: string }

const BAD_ESCAPE = /%(?![0-9a-fA-F]{2})/
// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * The first steps of the pipeline (docs/request-flow.md): malformed URLs are a 400; uppercase
 * paths, repeated slashes, trailing slashes and percent-encoded unreserved characters (`%62` for
 * `b`, RFC 3986 section 6.2.2.2) answer 301 with the lowercase, slash-less, decoded path, so each
 * page has one spelling: the one the router matches and the cache keys on.
 * The Location is relative and always starts with exactly one "/", so it cannot leave the site
 * (`//evil.example/` becomes `/evil.example`; the URL parser already turned `\` into `/`).
 */
export function checkUrl(url: URL): Verdict {
  const path = url.pathname
  const query = url.search.slice(1)
  if (longer(path, MAX_PATH_BYTES)) return bad('path too long')
  if (longer(query, MAX_QUERY_BYTES)) return bad('query too long')
  if (BAD_ESCAPE.test(path) || BAD_ESCAPE.test(query)) return bad('invalid percent-encoding')
  let decodedPath: string
  let decodedQuery: string
  // Without a percent-escape, decoding changes nothing a control character could hide in.
  try {
    decodedPath = path.includes('%') ? decodeURIComponent(path) : path
    decodedQuery = query.includes('%') ? decodeURIComponent(query.replace(/\+/g, ' ')) : query
  } catch {
    return bad('invalid percent-encoding')
  }
  if (CONTROL.test(decodedPath) || CONTROL.test(decodedQuery)) return bad('control character')

  const normalised = normalisedPath(path)
  if (normalised !== path) return { kind: 'redirect', location: normalised + url.search }
  return { kind: 'ok' }
}

const encoder = new TextEncoder()

/** Whether `text` is longer than `max` bytes in UTF-8 (at most 3 bytes per UTF-16 unit). */
function longer(text: string, max: number): boolean {
  return text.length * 3 > max && encoder.encode(text).byteLength > max
}

function bad(reason: string): Verdict {
  return { kind: 'bad-request', reason }
}

export const normaliseRequest: MiddlewareHandler<AppEnv> = async (c, next) => {
  // The fast path hands on only URLs it found in normal form, by this same check.
  if (c.env.decided) return next()
  const verdict = checkUrl(new URL(c.req.url))
  if (verdict.kind === 'bad-request') throw new HTTPException(400, { message: verdict.reason })
  if (verdict.kind === 'redirect') {
    // A data path answers JSON only (docs/browser.md); the script asks for exact paths, so
    // another spelling names nothing: a 404 in JSON, not a redirect.
    if (isDataPath(c.req.path)) throw new HTTPException(404)
    return new Response(null, { status: 301, headers: { Location: verdict.location } })
  }
  await next()
}

/** The methods a path answers, as the page table (src/pages.ts `methodsOf`) says. */
export type MethodsOf = (path: string) => readonly string[]

/** A 405, with the methods its `Allow` header names. */
export class MethodNotAllowed extends HTTPException {
  readonly allow: string

  constructor(methods: readonly string[]) {
    const allow = methods.join(', ')
    super(405, { message: `Allow: ${allow}` })
    this.allow = allow
  }
}

/** A method the path does not answer is a 405, which names the ones it does. */
export function allowMethods(methodsOf: MethodsOf): MiddlewareHandler {
  return async (c, next) => {
    const methods = methodsOf(c.req.path)
    if (!methods.includes(c.req.method)) throw new MethodNotAllowed(methods)
    await next()
  }
}
