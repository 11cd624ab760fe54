import { inboundFiltersIntegration } from '@sentry/core'
import type { Event, StackFrame } from '@sentry/types'
import { Toucan } from 'toucan-js'
import pkg from '../../package.json'
import {
  IGNORED_ERRORS,
  MAX_FRAMES,
  MAX_LINE,
  RATE_LIMIT_FALLBACK_MS,
  SAFE_PARAMS,
} from './event-rules'
import { MAX_BREADCRUMBS } from './trail'

/** A send that takes longer is abandoned: a slow Sentry must not hold the isolate. */
export const SEND_TIMEOUT_MS = 5_000

export interface SentryOptions {
  dsn: string
  /** The request the event is about; none for work outside a request (the cron). */
  request?: Request
  waitUntil: (promise: Promise<unknown>) => void
  environment: string
  tracesSampleRate: number
}

/**
 * A Toucan client for one request, sending straight to the DSN (no tunnel). Sends run in
 * waitUntil through `send`, which gives up after SEND_TIMEOUT_MS and honours 429s across
 * requests, so a Sentry that is down, slow or rate limiting adds nothing to a page.
 */
export function createSentry(o: SentryOptions): Toucan {
  return new Toucan({
    dsn: o.dsn,
    request: o.request,
    context: { waitUntil: o.waitUntil, request: o.request },
    release: pkg.version,
    environment: o.environment,
    maxBreadcrumbs: MAX_BREADCRUMBS,
    tracesSampleRate: o.tracesSampleRate,
    sendDefaultPii: false,
    integrations: [inboundFiltersIntegration({ ignoreErrors: [...IGNORED_ERRORS] })],
    requestDataOptions: {
      allowedHeaders: ['accept-language', 'referer'],
      allowedCookies: false,
      allowedSearchParams: SAFE_PARAMS,
      allowedIps: false,
    },
    transportOptions: { fetcher: send },
    beforeSend: (event) => scrub(event),
    // A 404 is an answer, not a slow page worth a trace.
    beforeSendTransaction: (event) => (event.tags?.status === '404' ? null : scrub(event)),
  })
}

/**
 * Drops what must never leave (cookies, IP addresses, the query of the page a visitor came
 * from) and caps stack traces.
 */
export function scrub<T extends Event>(event: T): T {
  if (event.request) {
    delete event.request.cookies
    const headers = event.request.headers
    if (headers) {
      for (const name of Object.keys(headers)) {
        if (/cookie|authorization|ip|forwarded/i.test(name)) delete headers[name]
        else if (/^referer$/i.test(name)) {
          const page = refererPage(headers[name] ?? '')
          if (page === null) delete headers[name]
          else headers[name] = page
        }
      }
    }
  }
  if (event.user) event.user = { id: event.user.id }
  for (const exception of event.exception?.values ?? []) {
    const frames = exception.stacktrace?.frames
    if (frames && exception.stacktrace)
      exception.stacktrace.frames = frames.slice(-MAX_FRAMES).map(capFrame)
    if (exception.value) exception.value = exception.value.slice(0, MAX_LINE)
  }
  return event
}

/**
 * The origin and path of a Referer: which page linked here, without the query or fragment
 * (a search engine's `q=`, another site's tokens) or any credentials. Null when it is no URL.
 */
export function refererPage(referer: string): string | null {
  try {
    const url = new URL(referer)
    return url.origin === 'null' ? null : url.origin + url.pathname
  } catch {
    return null
  }
}

function capFrame(frame: StackFrame): StackFrame {
  const cap = (text?: string) => text?.slice(0, MAX_LINE)
  return {
    ...frame,
    filename: cap(frame.filename),
    function: cap(frame.function),
    module: cap(frame.module),
    abs_path: cap(frame.abs_path),
    context_line: cap(frame.context_line),
    pre_context: frame.pre_context?.map((line) => line.slice(0, MAX_LINE)),
    post_context: frame.post_context?.map((line) => line.slice(0, MAX_LINE)),
  }
}

// Per Sentry endpoint, the moment it said to come back (429 with Retry-After, or the fallback).
const blockedUntil = new Map<string, number>()

/** The fetch Toucan sends with: bounded in time, quiet while Sentry asks us to wait. */
export async function send(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input)
  const endpoint = url.origin + url.pathname
  if ((blockedUntil.get(endpoint) ?? 0) > Date.now()) return new Response(null, { status: 429 })
  try {
    const res = await fetch(input, { ...init, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) })
    if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'))
      blockedUntil.set(
        endpoint,
        Date.now() + (seconds > 0 ? seconds * 1000 : RATE_LIMIT_FALLBACK_MS),
      )
    }
    await res.body?.cancel()
    return new Response(null, { status: res.status, headers: res.headers })
  } catch {
    // Down or too slow: the event is lost, the page is not.
    return new Response(null, { status: 503 })
  }
}
