import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'

// What a form POST from a page of this site must be (docs/hardening.md, "Form posts").

/** A form is a few fields of text: anything larger is refused before it is read whole. */
export const MAX_FORM_BYTES = 16 * 1024

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
 * The fields of a URL-encoded form body. Another content type is a 415, a body over
 * MAX_FORM_BYTES a 413 (counted as it arrives, so a missing or false Content-Length changes
 * nothing); bytes that are not UTF-8 become U+FFFD, never an error.
 */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new HTTPException(415, { message: 'send the form as application/x-www-form-urlencoded' })
  }
  const text = await readCapped(request, MAX_FORM_BYTES)
  if (text === null) tooLarge()
  return new URLSearchParams(text)
}

function tooLarge(): never {
  throw new HTTPException(413, { message: `a form is at most ${MAX_FORM_BYTES} bytes` })
}

/**
 * The request body as text, or null when it is longer than `max` bytes (counted as it arrives,
 * so a missing or false Content-Length changes nothing); bytes that are not UTF-8 become U+FFFD.
 */
export async function readCapped(request: Request, max: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return null
  const reader = (request.body as ReadableStream<Uint8Array> | null)?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(all)
}
