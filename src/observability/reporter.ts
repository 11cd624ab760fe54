import type { Toucan } from 'toucan-js'
import { HEADLESS } from './event-rules'
import { log } from './log'
import { createSentry } from './sentry'
import type { Trail } from './trail'

/** Something that records a problem that did not fail the request. */
export type Report = (message: string, detail?: Record<string, unknown>) => void

/** A problem outside any request (or before reporting is set up): one log line. */
export const logProblem: Report = (message, detail = {}) => {
  log('error', message, detail)
}

/**
 * A failure outside any request (a step of the cron): a log line, and an error report when a
 * DSN is set, sent in `waitUntil` like a request's.
 */
export function reportBackground(
  error: unknown,
  options: {
    dsn: string | undefined
    environment: string
    waitUntil: (promise: Promise<unknown>) => void
    tags: Record<string, string>
  },
): void {
  logProblem('background work failed', { error: String(error), ...options.tags })
  if (!options.dsn) return
  const sentry = createSentry({ ...options, dsn: options.dsn, tracesSampleRate: 0 })
  sentry.withScope((scope) => {
    scope.setTags(options.tags)
    scope.captureException(error)
  })
}

/** Whether to trace a request, at a sample rate of `rate`. */
export function sampled(rate: number): boolean {
  return rate > 0 && Math.random() < rate
}

export interface ReporterOptions {
  /** SENTRY_DSN; empty or absent turns error reporting off, silently. */
  dsn: string | undefined
  request: Request
  waitUntil: (promise: Promise<unknown>) => void
  environment: string
  trail: Trail
  /** On every log line and error report of the request (src/observability/log.ts). */
  requestId: string
}

/**
 * Error reporting for one request. The Toucan client is only made when something is sent, so
 * a request that goes well pays nothing for it; then it gets the request's breadcrumbs.
 */
export class Reporter {
  /** Share of requests traced, from configuration (traceSampleRates.server). */
  tracesSampleRate = 0
  readonly #options: ReporterOptions
  readonly #started = Date.now()
  #client: Toucan | null | undefined
  #reportedError = false

  constructor(options: ReporterOptions) {
    this.#options = options
  }

  /** The request's id, on its log line and its error reports alike. */
  get requestId(): string {
    return this.#options.requestId
  }

  /** True once an error of this request has been sent: a 5xx is reported exactly once. */
  get reportedError(): boolean {
    return this.#reportedError
  }

  /** A failure that made the response a 5xx. Reported once per request; later calls log only. */
  error(error: unknown, tags: Record<string, string>): void {
    log('error', 'request failed', {
      requestId: this.#options.requestId,
      error: String(error),
      cause: error instanceof Error ? String(error.cause) : undefined,
      ...tags,
    })
    if (this.#reportedError) return
    this.#reportedError = true
    this.#sentry()?.withScope((scope) => {
      scope.setTags(tags)
      scope.captureException(error)
    })
  }

  /** A problem the request survived (a malformed flag document, a streamed section that failed). */
  readonly problem: Report = (message, detail = {}) => {
    log('warn', message, { requestId: this.#options.requestId, ...detail })
    this.#sentry()?.withScope((scope) => {
      scope.setExtras(detail)
      scope.captureMessage(message, 'warning')
    })
  }

  /** The request's transaction, for the sampled share of requests. */
  finish(status: number, tags: Record<string, string>): void {
    if (sampled(this.tracesSampleRate)) this.trace(status, tags)
  }

  /** The request's transaction, sent now: for a caller that has already drawn it (`sampled`). */
  trace(status: number, tags: Record<string, string>): void {
    const traceId = crypto.randomUUID().replace(/-/g, '')
    this.#sentry()?.captureEvent({
      type: 'transaction',
      transaction: `${this.#options.request.method} ${tags.route ?? new URL(this.#options.request.url).pathname}`,
      start_timestamp: this.#started / 1000,
      timestamp: Date.now() / 1000,
      contexts: {
        trace: {
          trace_id: traceId,
          span_id: traceId.slice(0, 16),
          op: 'http.server',
          status: status < 400 ? 'ok' : 'unknown_error',
        },
      },
      tags: { ...tags, status: String(status) },
      spans: [],
    })
  }

  #sentry(): Toucan | null {
    if (this.#client !== undefined) return this.#client
    const o = this.#options
    // Headless browsers are tests and scrapers: nothing of theirs is sent.
    if (!o.dsn || HEADLESS.test(o.request.headers.get('user-agent') ?? ''))
      return (this.#client = null)
    const client = createSentry({
      dsn: o.dsn,
      request: o.request,
      waitUntil: o.waitUntil,
      environment: o.environment,
      tracesSampleRate: this.tracesSampleRate,
    })
    client.setTag('request_id', o.requestId)
    for (const crumb of o.trail.crumbs) client.addBreadcrumb(crumb)
    return (this.#client = client)
  }
}
