import { pageKey } from '../cache/cache-key'
import { assess } from '../cache/entry-meta'
import type { Policy } from '../cache/policies'
import { servable, storedResponse } from '../cache/stored-response'
import type { Config } from '../flags/definitions'
import { CONFIG_DEFAULTS } from '../flags/definitions'
import type { Evaluations } from '../flags/evaluate'
import { evaluateAll, fingerprint } from '../flags/evaluate'
import { recordFlags } from '../flags/flags-middleware'
import type { PageContext } from '../flags/page-context'
import { gateCrumb, slugKnown } from '../gate/gate'
import type { GateKind } from '../gate/gate-filter'
import { knownNewCities } from '../gate/new-cities'
import { logRequest, pageTags } from '../observability/observe'
import { requestIdOf } from '../observability/log'
import { logProblem, Reporter, sampled } from '../observability/reporter'
import { Timing } from '../observability/timing'
import { Trail } from '../observability/trail'
import { isDataPath } from '../urls/data-prefix'
import { isCrawler } from './crawler'
import type { Memory } from './memory'
import { newNonce } from './nonce'
import { checkUrl } from './normalise-request'
import { isPrefetch } from './prefetch'
import { secure } from './security-headers'
import type { Visitor } from './visitor-cookies'
import { setVisitorCookies, visitorOf } from './visitor-cookies'

/** What the page table (src/pages.ts) tells of the row a GET path routes to. */
export interface RoutedPage {
  /** The row's Hono pattern. */
  pattern: string
  page: PageContext
  policy: Policy | null
  gate: Readonly<Record<string, GateKind>> | null
  params: Readonly<Record<string, string>>
}

/** What the fast path is handed from above it: the page table, and the gate's 404 page. */
export interface FastPathParts {
  route: (path: string) => RoutedPage | null
  /** The gate's 404 page of `page`, as first rendered, with `nonce`; null until it has been. */
  notFound: (page: PageContext, nonce: string, timing: Timing) => Response | null
}

/** A request's answer from the fast path, or null: then the whole pipeline answers it. */
export type FastPath = (request: Request, env: Env, ctx: ExecutionContext) => Response | null

/**
 * The two answers most requests get, given before the framework (docs/request-flow.md): a fresh
 * page from the isolate's hot pages, and the gate's 404 of an unknown slug. Each decision is the
 * pipeline's own (the same functions: URL check, page table, gate, flags and variant, cache key,
 * freshness and purges, stored response, cookies, security headers, log line), taken only from
 * what the isolate already holds: when anything is missing, due a refresh or unusual, it answers
 * null and the pipeline does the rest exactly as it would have.
 */
export function fastPath(memory: Memory, parts: FastPathParts): FastPath {
  return (request, env, ctx) => {
    try {
      return answer(memory, parts, request, env, ctx)
    } catch (error) {
      // Never a failed request: the pipeline answers, and reports what it must.
      logProblem('fast path: failed, the pipeline answers', { error: String(error) })
      return null
    }
  }
}

function answer(
  memory: Memory,
  parts: FastPathParts,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Response | null {
  const started = Date.now()
  const method = request.method
  if (method !== 'GET' && method !== 'HEAD') return null
  const url = new URL(request.url)
  const path = url.pathname
  // Percent-escapes (which Hono decodes) and data requests are left to the pipeline.
  if (path.includes('%') || isDataPath(path) || checkUrl(url).kind !== 'ok') return null
  const routed = parts.route(path)
  if (!routed) return null

  const gate = routed.gate
    ? gateOf(memory, routed.gate, routed.params)
    : { known: true, crumbs: [] }
  if (!gate) return null
  const headers = request.headers
  const bot = isCrawler(headers.get('user-agent') ?? undefined)
  const visitor = visitorOf(headers.get('cookie'))
  const answered = { request, env, ctx, url, started, bot, visitor, routed }

  if (!gate.known) {
    const nonce = newNonce()
    const res = parts.notFound(routed.page, nonce, new Timing())
    if (!res) return null
    res.headers.set('x-cache', 'BYPASS')
    // Nothing traced: the gate answers before the flags set a sample rate. Rendered before
    // the flags step too, so with the documented configuration.
    return finish(answered, res, nonce, CONFIG_DEFAULTS, null)
  }

  const flags = memory.flags
  const purges = memory.purges
  if (!routed.policy || !flags.value || flags.stale || !purges.known || purges.due) return null
  const set = flags.value
  const { page } = routed
  const evaluations = evaluateAll(set.flags, { deviceId: visitor.deviceId, bot }, page.target)
  const variant = fingerprint(evaluations, set.config, page.shapedBy)
  const on = (name: keyof Evaluations) => evaluations[name].value
  const key = pageKey(routed.policy, env.PUBLIC_ORIGIN, path, url.searchParams, on, variant)
  if (key === null) return null
  const stored = memory.hotPages.recall(key)
  const meta = servable(stored, bot)
  if (!stored || !meta) return null
  const now = Date.now()
  if (assess(meta, now, purges.newestOf(meta.tags)) !== 'fresh') return null

  // A copy sent as it is brings the policy of its scripts' hashes: no nonce to make.
  const nonce = meta.nonce === null ? '' : newNonce()
  const ifNoneMatch = headers.get('if-none-match') ?? undefined
  const res = storedResponse(stored, 'HIT', now, ifNoneMatch, nonce)
  res.headers.set('x-variant', variant)
  const trace = sampled(set.config.traceSampleRates.server)
    ? { rate: set.config.traceSampleRates.server, crumbs: gate.crumbs, evaluations }
    : null
  return finish(answered, res, nonce, set.config, trace)
}

/** What the gate says of a routed URL's parameters, or null when its memory is due a load. */
function gateOf(
  memory: Memory,
  params: Readonly<Record<string, GateKind>>,
  values: Readonly<Record<string, string>>,
): { known: boolean; crumbs: string[] } | null {
  const kept = memory.gate
  if (kept.value === undefined || kept.stale) return null
  const filter = kept.value
  const crumbs: string[] = []
  for (const [name, kind] of Object.entries(params)) {
    const value = values[name] ?? ''
    const added = filter ? knownNewCities(memory.newCities, filter.meta) : null
    if (filter && !added) return null
    const known = slugKnown(filter, kind, value, added ?? NO_SLUGS)
    crumbs.push(gateCrumb(kind, known))
    if (!known) return { known, crumbs }
  }
  return { known: true, crumbs }
}

const NO_SLUGS: ReadonlySet<string> = new Set()

interface Answered {
  request: Request
  env: Env
  ctx: ExecutionContext
  url: URL
  started: number
  bot: boolean
  visitor: Visitor
  routed: RoutedPage
}

interface Trace {
  rate: number
  crumbs: readonly string[]
  evaluations: Evaluations
}

/** What every answer gets on its way out: cookies, security headers, a trace, the log line. */
function finish(
  { request, env, ctx, url, started, bot, visitor, routed }: Answered,
  res: Response,
  nonce: string,
  config: Config,
  trace: Trace | null,
): Response {
  if (!isPrefetch(request.headers))
    setVisitorCookies(res.headers, visitor, Math.floor(Date.now() / 1000))
  secure(res.headers, nonce, env.SENTRY_BROWSER_DSN, config)
  const tags = pageTags(routed.pattern, routed.page)
  const requestId = requestIdOf(request)
  if (trace) {
    // The breadcrumbs the pipeline would have left: the gate's, the flags', the cache's.
    const trail = new Trail()
    for (const crumb of trace.crumbs) trail.add('gate', crumb)
    recordFlags(trail, trace.evaluations)
    trail.add('cache', 'fresh')
    const reporter = new Reporter({
      requestId,
      dsn: env.SENTRY_DSN,
      request,
      waitUntil: (p) => ctx.waitUntil(p),
      environment: env.ENVIRONMENT,
      trail,
    })
    reporter.tracesSampleRate = trace.rate
    reporter.trace(res.status, tags)
  }
  logRequest({
    requestId,
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    status: res.status,
    pageType: tags.pageType,
    cache: res.headers.get('x-cache') ?? 'none',
    started,
    bot,
  })
  // HEAD is answered as Hono answers it: the GET response without its body.
  return request.method === 'HEAD' ? new Response(null, res) : res
}
