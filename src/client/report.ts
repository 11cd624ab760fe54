import {
  HEADLESS,
  isIgnored,
  MAX_FRAMES,
  MAX_LINE,
  RATE_LIMIT_FALLBACK_MS,
  SAFE_PARAMS,
} from '../observability/event-rules'
import type { ClientConfig } from '../views/client-config'
import { CLIENT_CONFIG_ID } from '../views/client-config'

// Errors and sampled page-load traces of the browser script, sent straight to Sentry's
// envelope endpoint (no SDK: it would cost more than the whole script) with the server's
// rules: same ignored errors, headless browsers dropped, 50 frames of 1,024 characters, no
// cookies, no query values but the listing filters, and quiet after a 429.

const config = readConfig()
const crumbs: { timestamp: number; category: string; message: string }[] = []
let blockedUntil = 0

function readConfig(): ClientConfig | null {
  try {
    return JSON.parse(
      document.getElementById(CLIENT_CONFIG_ID)?.textContent ?? 'null',
    ) as ClientConfig | null
  } catch {
    return null
  }
}

/** A breadcrumb for the next report: navigations and choices, never what was typed. */
export function crumb(message: string): void {
  crumbs.push({ timestamp: Date.now() / 1000, category: 'navigation', message })
  if (crumbs.length > 100) crumbs.shift()
}

/** Reports an uncaught error of the browser script, unless the rules drop it. */
export function report(error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error))
  if (isIgnored(err.message)) return
  send('event', {
    level: 'error',
    exception: {
      values: [
        {
          type: err.name,
          value: err.message.slice(0, MAX_LINE),
          stacktrace: { frames: frames(err.stack ?? '') },
        },
      ],
    },
    breadcrumbs: crumbs,
  })
}

/** With the configured share of page loads, a trace of how this one went. */
export function tracePageLoad(): void {
  if (!config || Math.random() >= config.traceSampleRate) return
  const nav = performance.getEntriesByType('navigation')[0] as
    PerformanceNavigationTiming | undefined
  if (!nav) return
  const start = performance.timeOrigin / 1000
  const ms = (value: number) => ({ value, unit: 'millisecond' })
  send('transaction', {
    type: 'transaction',
    transaction: config.pageType ?? location.pathname,
    start_timestamp: start,
    timestamp: start + nav.loadEventEnd / 1000,
    contexts: { trace: { trace_id: hex(16), span_id: hex(8), op: 'pageload', status: 'ok' } },
    measurements: {
      ttfb: ms(nav.responseStart),
      dom_content_loaded: ms(nav.domContentLoadedEventEnd),
      load: ms(nav.loadEventEnd),
    },
  })
}

function send(type: 'event' | 'transaction', payload: Record<string, unknown>): void {
  if (!config?.dsn || HEADLESS.test(navigator.userAgent) || Date.now() < blockedUntil) return
  const dsn = parseDsn(config.dsn)
  if (!dsn) return
  const eventId = hex(16)
  const event = {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    logger: 'browser',
    release: config.release,
    environment: config.environment,
    tags: { pageType: config.pageType ?? 'none' },
    request: { url: safeUrl(location.href), headers: { 'User-Agent': navigator.userAgent } },
    ...payload,
  }
  const body = [
    JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() }),
    JSON.stringify({ type }),
    JSON.stringify(event),
  ].join('\n')
  // A string body is a "simple" cross-origin request: no preflight, as Sentry's own SDK sends.
  fetch(dsn.endpoint, { method: 'POST', body, keepalive: true })
    .then((res) => {
      if (res.status !== 429) return
      const seconds = Number(res.headers.get('retry-after'))
      blockedUntil = Date.now() + (seconds > 0 ? seconds * 1000 : RATE_LIMIT_FALLBACK_MS)
    })
    .catch(() => undefined)
}

/** `https://KEY@HOST/PROJECT` → the envelope endpoint, authenticated in the query. */
function parseDsn(dsn: string): { endpoint: string } | null {
  try {
    const url = new URL(dsn)
    const project = url.pathname.split('/').filter(Boolean).pop()
    if (!url.username || !project) return null
    return {
      endpoint: `${url.protocol}//${url.host}/api/${project}/envelope/?sentry_key=${url.username}&sentry_version=7`,
    }
  } catch {
    return null
  }
}

/** The page URL with only the listing filters' values: nothing a visitor typed about themselves. */
function safeUrl(href: string): string {
  const url = new URL(href)
  for (const name of [...url.searchParams.keys()]) {
    if (!SAFE_PARAMS.includes(name)) url.searchParams.set(name, '[Filtered]')
  }
  return url.href
}

/** Stack frames, oldest first as Sentry wants them, the innermost 50, each line capped. */
function frames(
  stack: string,
): { function: string; filename: string; lineno: number; colno: number }[] {
  const parsed = []
  for (const line of stack.split('\n')) {
    const m =
      /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line) ??
      /^(.*?)@(.+?):(\d+):(\d+)$/.exec(line)
    if (!m) continue
    parsed.push({
      function: (m[1] || '?').slice(0, MAX_LINE),
      filename: (m[2] ?? '').slice(0, MAX_LINE),
      lineno: Number(m[3]),
      colno: Number(m[4]),
    })
  }
  return parsed.slice(0, MAX_FRAMES).reverse()
}

function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}
