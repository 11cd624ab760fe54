import { pageKey } from './cache/cache-key'
import { assess } from './cache/entry-meta'
import { servable, storedResponse } from './cache/stored-response'
import { CONFIG_DEFAULTS } from './flags/definitions'
import type { FlagName } from './flags/definitions'
import { recordFlags } from './flags/flags-middleware'
import type { PageContext } from './flags/page-context'
import { knownNewCities } from './gate/new-cities'
import { pageTags } from './observability/observe'
import { logProblem } from './observability/reporter'
import { Timing } from './observability/timing'
import { Trail } from './observability/trail'
import { isDataPath } from './urls/data-prefix'
import { isCrawler } from './request/crawler'
import type { Decision, KeyOf, RoutedPage } from './request/decision'
import { decide, gateVerdict, refused } from './request/decision'
import type { Memory } from './memory'
import type { RenderedErrors } from './views/rendered-errors'
import { newNonce } from './lib/nonce'
import { checkUrl } from './request/normalise-request'
import { visitorOf } from './request/visitor-cookies'
import { finishResponse, reporterOf } from './request/way-out'

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

/**
 * A request's answer from the fast path; else the decision it made of the request, which the
 * pipeline takes from there (`withDecision`), or null when it could not make it: then the
 * pipeline decides everything.
 */
export type FastPath = (
  request: Request,
  env: Env,
  ctx: ExecutionContext,
) => Response | Decision | null

/**
 * The two answers most requests get, given before the framework (docs/request-flow.md): a fresh
 * page from the isolate's hot pages, and the gate's 404 of an unknown slug. The decision is the
 * pipeline's own (`decide`, src/request/decision.ts), made only from what the isolate already
 * holds; the answer then takes the pipeline's same functions (stored response, cookies, security
 * headers, log line). When anything is missing, due a refresh or unusual, it answers nothing and
 * the pipeline does the rest exactly as it would have.
 */
export function fastPath(memory: Memory, parts: FastPathParts): FastPath {
  const kept = { ...parts, route: keptRoutes(parts.route), key: keptKeys() }
  return (request, env, ctx) => {
    try {
      const asked = askedOf(memory, kept, request)
      if (!asked) return null
      const decision = decisionOf(memory, kept, asked, env)
      if (!decision) return null
      return answer(memory, kept, { ...asked, decision, env, ctx }) ?? decision
    } catch (error) {
      // Never a failed request: the pipeline answers, and reports what it must.
      logProblem('fast path: failed, the pipeline answers', { error: String(error) })
      return null
    }
  }
}

type Kept = FastPathParts & { key: KeyOf }

/** A GET or HEAD of a page the page table routes, in normal form, and when it arrived. */
interface Asked {
  request: Request
  url: URL
  routed: RoutedPage
  started: number
}

function askedOf(memory: Memory, parts: Kept, request: Request): Asked | null {
  const started = Date.now()
  const method = request.method
  if (method !== 'GET' && method !== 'HEAD') return null
  const url = new URL(request.url)
  const path = url.pathname
  // Percent-escapes (which Hono decodes) and data requests are left to the pipeline.
  if (path.includes('%') || isDataPath(path) || checkUrl(url).kind !== 'ok') return null
  const routed = parts.route(path)
  return routed && { request, url, routed, started }
}

/**
 * The request's decision from what the isolate holds, or null when it holds too little: the
 * gate due a load, purges not current, the flag set due a read.
 */
function decisionOf(memory: Memory, parts: Kept, asked: Asked, env: Env): Decision | null {
  const { request, url, routed } = asked
  const filter = memory.gate
  // A gate due a load is loaded by the pipeline.
  if (routed.gate && (filter.value === undefined || filter.stale)) return null
  const gate = gateVerdict(routed, filter.value ?? null, (built) =>
    knownNewCities(memory.newCities, built.meta),
  )
  // A refusal waits for the purges' read when one is due, or they are not current (an isolate
  // idle past REFRESH_MS): they may say the additions are behind.
  const purgesCurrent = memory.purges.current && !memory.purges.due
  if (!gate || (!gate.known && !purgesCurrent)) return null
  const headers = request.headers
  const asker = {
    bot: isCrawler(headers.get('user-agent') ?? undefined),
    visitor: visitorOf(headers.get('cookie')),
  }
  if (!gate.known) return refused(asker, routed, gate)
  // A stored copy is served here only on purges read within READ_EVERY_MS: never on knowledge
  // older than REFRESH_MS, which the pipeline reads again first.
  const flags = memory.flags
  if (!routed.policy || !flags.value || flags.stale || !purgesCurrent) return null
  const origin = env.PUBLIC_ORIGIN
  const { page } = routed
  return decide({ url, origin, asker, routed, page, gate, set: flags.value, keyOf: parts.key })
}

/** The fast path's answer to a decided request, or null: a miss, which the pipeline renders. */
function answer(
  memory: Memory,
  parts: Kept,
  asked: Asked & { decision: Decision; env: Env; ctx: ExecutionContext },
): Response | null {
  const { decision } = asked
  if (!decision.gate.known) return notFound(memory, parts, asked)
  const { flags, key, asker } = decision
  if (!flags || key === null) return null
  const stored = memory.hotPages.recall(key)
  const meta = servable(stored, asker.bot)
  const now = Date.now()
  const fresh = stored && meta && assess(meta, now, memory.purges.newestOf(meta.tags)) === 'fresh'
  if (!fresh) return null
  // A copy sent as it is brings the policy of its scripts' hashes: no nonce to make.
  const nonce = meta.nonce === null ? '' : newNonce()
  const ifNoneMatch = asked.request.headers.get('if-none-match') ?? undefined
  const res = storedResponse(stored, 'HIT', now, ifNoneMatch, nonce)
  res.headers.set('x-variant', flags.variant)
  const { trail, reporter, out } = outbound(asked)
  // The breadcrumbs the pipeline would have left: the gate's, the flags', the cache's.
  recordFlags(trail, flags.evaluations)
  trail.add('cache', 'fresh')
  reporter.tracesSampleRate = flags.set.config.traceSampleRates.server
  return finishResponse(res, { ...out, nonce, config: flags.set.config })
}

/** The gate's 404 page as first rendered, or null until the pipeline has rendered it. */
function notFound(
  memory: Memory,
  parts: Kept,
  asked: Asked & { decision: Decision; env: Env; ctx: ExecutionContext },
): Response | null {
  const found = parts.notFound(memory.renderedErrors, asked.decision.page, new Timing())
  if (!found) return null
  const { res, nonce } = found
  res.headers.set('x-cache', 'BYPASS')
  // Nothing traced: the gate answers before the flags set a sample rate. Rendered before
  // the flags step too, so with the documented configuration.
  return finishResponse(res, { ...outbound(asked).out, nonce, config: CONFIG_DEFAULTS })
}

/** What the way out needs of a request the fast path answers, made only once it does. */
function outbound(asked: Asked & { decision: Decision; env: Env; ctx: ExecutionContext }) {
  const { request, url, routed, decision, env, ctx } = asked
  const trail = new Trail()
  for (const crumb of decision.gate.crumbs) trail.add('gate', crumb)
  const reporter = reporterOf(request, env, (p) => ctx.waitUntil(p), trail)
  const out = {
    request,
    path: url.pathname,
    query: url.searchParams,
    env,
    visitor: decision.asker.visitor,
    reporter,
    tags: pageTags(routed.pattern, routed.page.target.pageType),
    started: asked.started,
    bot: decision.asker.bot,
  }
  return { trail, reporter, out }
}

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
