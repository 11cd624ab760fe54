import { pageKey } from './cache/cache-key'
import { assess } from './cache/entry-meta'
import type { Policy } from './cache/policies'
import { servable, storedResponse } from './cache/stored-response'
import { CONFIG_DEFAULTS } from './flags/definitions'
import type { FlagName } from './flags/definitions'
import type { Evaluations } from './flags/evaluate'
import { evaluateAll, fingerprint } from './flags/evaluate'
import { recordFlags } from './flags/flags-middleware'
import type { PageContext } from './flags/page-context'
import { checkSlugs } from './gate/gate'
import type { GateAnswer, GateKind } from './gate/gate-filter'
import { knownNewCities } from './gate/new-cities'
import { pageTags } from './observability/observe'
import { logProblem } from './observability/reporter'
import { Timing } from './observability/timing'
import { Trail } from './observability/trail'
import { isDataPath } from './urls/data-prefix'
import { isCrawler } from './request/crawler'
import type { Memory } from './memory'
import type { RenderedErrors } from './views/rendered-errors'
import type { PageQuery } from './queries/page-query'
import { newNonce } from './lib/nonce'
import { checkUrl } from './request/normalise-request'
import { visitorOf } from './request/visitor-cookies'
import { finishResponse, reporterOf } from './request/way-out'

/** What the page table (src/pages.ts) tells of the row a GET path routes to. */
export interface RoutedPage {
  /** The row's Hono pattern. */
  pattern: string
  page: PageContext
  policy: Policy | null
  query: PageQuery
  gate: Readonly<Record<string, GateKind>> | null
  params: Readonly<Record<string, string>>
}

/** What the fast path is handed from above it: the page table, and the gate's 404 page. */
export interface FastPathParts {
  route: (path: string) => RoutedPage | null
  /**
   * The gate's 404 page of `page`, as first rendered, with its nonce ("" when it is sent as it
   * is); null until it has been.
   */
  notFound: (
    rendered: RenderedErrors,
    page: PageContext,
    timing: Timing,
  ) => { res: Response; nonce: string } | null
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
  const kept = { ...parts, route: keptRoutes(parts.route), key: keptKeys() }
  return (request, env, ctx) => {
    try {
      return answer(memory, kept, request, env, ctx)
    } catch (error) {
      // Never a failed request: the pipeline answers, and reports what it must.
      logProblem('fast path: failed, the pipeline answers', { error: String(error) })
      return null
    }
  }
}

function answer(
  memory: Memory,
  parts: FastPathParts & { key: KeyOf },
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

  const gate = routed.gate ? gateOf(memory, routed.gate, routed.params) : PASSED
  // A refusal waits for the purges' read when one is due, or they are not current (an isolate
  // idle past REFRESH_MS): they may say the additions are behind.
  const purgesCurrent = memory.purges.current && !memory.purges.due
  if (!gate || (!gate.known && !purgesCurrent)) return null
  const headers = request.headers
  const bot = isCrawler(headers.get('user-agent') ?? undefined)
  const visitor = visitorOf(headers.get('cookie'))
  // Made once the fast path answers: a request it leaves to the pipeline gets them there.
  const outbound = () => {
    const trail = new Trail()
    for (const crumb of gate.crumbs) trail.add('gate', crumb)
    const reporter = reporterOf(request, env, (p) => ctx.waitUntil(p), trail)
    const out = {
      request,
      path,
      query: url.searchParams,
      env,
      visitor,
      reporter,
      tags: pageTags(routed.pattern, routed.page.target.pageType),
      started,
      bot,
    }
    return { trail, reporter, out }
  }

  if (!gate.known) {
    const found = parts.notFound(memory.renderedErrors, routed.page, new Timing())
    if (!found) return null
    const { res, nonce } = found
    res.headers.set('x-cache', 'BYPASS')
    // Nothing traced: the gate answers before the flags set a sample rate. Rendered before
    // the flags step too, so with the documented configuration.
    return finishResponse(res, { ...outbound().out, nonce, config: CONFIG_DEFAULTS })
  }

  const flags = memory.flags
  const purges = memory.purges
  // A stored copy is served here only on purges read within READ_EVERY_MS: never on knowledge
  // older than REFRESH_MS, which the pipeline reads again first.
  if (!routed.policy || !flags.value || flags.stale || !purgesCurrent) return null
  const set = flags.value
  const { page } = routed
  const evaluations = evaluateAll(set.flags, { deviceId: visitor.deviceId, bot }, page.target)
  const variant = fingerprint(evaluations, set.config, page.shapedBy)
  const on = (name: keyof Evaluations) => evaluations[name].value
  const key = parts.key(routed, env.PUBLIC_ORIGIN, url, on, variant)
  if (key === null) return null
  const stored = memory.hotPages.recall(key)
  const meta = servable(stored, bot)
  const now = Date.now()
  if (!stored || !meta || assess(meta, now, purges.newestOf(meta.tags)) !== 'fresh') {
    // A miss: the pipeline renders it, with what was decided here rather than deciding it again.
    memory.handedOn.set(request, { set, evaluations, variant, key, gate })
    return null
  }

  // A copy sent as it is brings the policy of its scripts' hashes: no nonce to make.
  const nonce = meta.nonce === null ? '' : newNonce()
  const ifNoneMatch = headers.get('if-none-match') ?? undefined
  const res = storedResponse(stored, 'HIT', now, ifNoneMatch, nonce)
  res.headers.set('x-variant', variant)
  const { trail, reporter, out } = outbound()
  // The breadcrumbs the pipeline would have left: the gate's, the flags', the cache's.
  recordFlags(trail, evaluations)
  trail.add('cache', 'fresh')
  reporter.tracesSampleRate = set.config.traceSampleRates.server
  return finishResponse(res, { ...out, nonce, config: set.config })
}

const PASSED: GateAnswer = { known: true, crumbs: [] }

/**
 * How many URLs the fast path keeps the route and cache keys of, and how long a URL may be to
 * be kept (path and query, in UTF-16 units): a few thousand hot pages' URLs, in about a
 * megabyte at most. Each map is emptied when full, like the isolate's other bounded maps.
 */
const KEPT_URLS = 2000
const KEPT_URL_LENGTH = 256

/**
 * The page table's answer for each path, kept: a hot page's path is routed once per isolate,
 * not at each hit. The page table never changes while the isolate runs.
 */
export function keptRoutes(route: FastPathParts['route']): FastPathParts['route'] {
  const kept = new Map<string, RoutedPage | null>()
  return (path) => {
    const found = kept.get(path)
    if (found !== undefined) return found
    const routed = route(path)
    if (path.length > KEPT_URL_LENGTH) return routed
    if (kept.size >= KEPT_URLS) kept.clear()
    kept.set(path, routed)
    return routed
  }
}

/** The cache key of a request for `routed` (`pageKey`), for the flags it is served with. */
export type KeyOf = (
  routed: RoutedPage,
  origin: string,
  url: URL,
  on: (name: FlagName) => boolean,
  variant: string,
) => string | null

/**
 * `pageKey`, kept by origin, variant and URL: a page's query parser reads nothing but the
 * route's parameters, the query and the flags it asks `on` for, so the key is the same for as
 * long as those flags are, which each kept key checks (the flags a parser reads shape its page,
 * so they are the variant's already; the check keeps the key right even were one not).
 */
export function keptKeys(): KeyOf {
  const kept = new Map<string, { key: string | null; read: [FlagName, boolean][] }>()
  return (routed, origin, url, on, variant) => {
    const path = url.pathname
    const id = `${variant} ${origin} ${path}${url.search}`
    const found = kept.get(id)
    if (found && found.read.every(([name, value]) => on(name) === value)) return found.key
    const read: [FlagName, boolean][] = []
    const reading = (name: FlagName) => {
      const value = on(name)
      read.push([name, value])
      return value
    }
    const key = pageKey(routed, origin, path, url.searchParams, reading, variant)
    if (path.length + url.search.length > KEPT_URL_LENGTH) return key
    if (kept.size >= KEPT_URLS) kept.clear()
    kept.set(id, { key, read })
    return key
  }
}

/**
 * What the gate says of a routed URL's parameters (its own check, `checkSlugs`), or null when
 * its memory is due a load, or would refuse a slug on additions that are not current: the
 * pipeline does the load.
 */
function gateOf(
  memory: Memory,
  params: Readonly<Record<string, GateKind>>,
  values: Readonly<Record<string, string>>,
): GateAnswer | null {
  const kept = memory.gate
  if (kept.value === undefined || kept.stale) return null
  return checkSlugs(
    kept.value,
    params,
    (name) => values[name] ?? '',
    (filter) => knownNewCities(memory.newCities, filter.meta),
  )
}
