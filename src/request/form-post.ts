import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'

// What a form POST from a page of this site must be (docs/hardening.md, "Form posts").

/**
 * Whether a POST comes from a page of this site: its `Origin` is the site's (the request's own
 * origin, or PUBLIC_ORIGIN). Browsers send `Origin` with every form POST, and a page on another
 * site cannot set it, so this is the defence against cross-site posts (with SameSite cookies). A
 * POST without one (`null` included) is refused.
 */
export function fromOwnPages(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin')
  if (!origin) return false
  return origin === new URL(c.req.url).origin || origin === originOf(c.env.PUBLIC_ORIGIN)
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/**
 * The fields of a URL-encoded form body, as far as its first `maxBytes` bytes go (counted as they
 * arrive, so a missing or false Content-Length changes nothing): `complete` says whether that
 * was all of it. Another content type is a 415; bytes that are not UTF-8 become U+FFFD, never an
 * error.
 */
export async function readForm(
  request: Request,
  maxBytes: number,
): Promise<{ fields: URLSearchParams; complete: boolean }> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new HTTPException(415, { message: 'send the form as application/x-www-form-urlencoded' })
  }
  const { text, complete } = await readUpTo(request, maxBytes)
  // A body cut short may end inside a percent-escape: that half is dropped.
  return {
    fields: new URLSearchParams(complete ? text : text.replace(/%[0-9a-f]?$/i, '')),
    complete,
  }
}

/**
 * The request body as text, or null when it is longer than `max` bytes (then read no further
 * than that); bytes that are not UTF-8 become U+FFFD.
 */
export async function readCapped(request: Request, max: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return null
  const { text, complete } = await readUpTo(request, max)
  return complete ? text : null
}

/** The first `max` bytes of the body as text, and whether that was all of it. */
async function readUpTo(
  request: Request,
  max: number,
): Promise<{ text: string; complete: boolean }> {
  const reader = (request.body as ReadableStream<Uint8Array> | null)?.getReader()
  if (!reader) return { text: '', complete: true }
  const all = new Uint8Array(max)
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (size + value.byteLength > max) {
      all.set(value.subarray(0, max - size), size)
      await reader.cancel()
      return { text: new TextDecoder().decode(all), complete: false }
    }
    all.set(value, size)
    size += value.byteLength
  }
  return { text: new TextDecoder().decode(all.subarray(0, size)), complete: true }
}
