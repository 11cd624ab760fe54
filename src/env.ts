import type { ShardReads } from './data/databases'
import type { Db } from './data/db'
import type { Cities } from './data/kept-cities'
import type { PageContext } from './flags/page-context'
import type { Flags } from './flags/request-flags'
import type { Reporter } from './observability/reporter'
import type { Timing } from './observability/timing'
import type { Trail } from './observability/trail'
import type { Memory } from './memory'
import type { Asker, Bindings, Decision, RoutedPage } from './request/decision'
import type { ReadSession } from './request/read-session'
import type { Rendered } from './views/render-html'

/**
 * Hono's environment: bindings from `wrangler types` (with the fast path's decision of the
 * request, if any), per-request variables set by app.ts.
 */
export interface AppEnv {
  Bindings: Bindings
  Variables: {
    /** What the isolate keeps between requests: the app's (src/memory.ts). */
    memory: Memory
    /**
     * D1 reads of control for this request, counted, timed and retried (src/data/db.ts): what is
     * national or keyed by id (docs/scale.md).
     */
    db: Db
    /** D1 reads of the catalog's shards for this request: a city's, a state's (src/request/page-reads.ts). */
    shards: ShardReads
    /** Cities by slug, from the isolate's copy of every city (src/data/kept-cities.ts). */
    cities: Cities
    /**
     * The request's D1 sessions, one a database, each as opened at its first read
     * (src/request/page-reads.ts): a page rendered from a replica is stored only once no purge
     * could be missing from any of them (src/cache/storable.ts). Empty until a read opens one.
     */
    readSessions: readonly ReadSession[]
    /** The page's tags known before it renders, which choose its session (set by the edge cache). */
    readTags: readonly string[] | undefined
    timing: Timing
    /** Breadcrumbs: storage reads, flag evaluations, cache decisions. */
    trail: Trail
    /** Error reporting of this request (src/observability/reporter.ts). */
    reporter: Reporter
    /** A crawler by user agent: it gets the whole document before the first byte. */
    bot: boolean
    /** care_did: the visitor's device id, from the cookie or new (set on the way out). */
    deviceId: string
    /** The visitor and whether a crawler, as the decision takes them. */
    asker: Asker
    /** The page the URL routes to, from the page table (src/pages.ts). */
    page: PageContext
    /** The page table's row the URL routes to, with its parameters; null for none. */
    routed: RoutedPage | null
    /**
     * The request's route, gate verdict, flags and variant, and cache key, decided once
     * (src/request/decision.ts); set by the decision step.
     */
    decision: Decision
    flags: Flags
    /** This response's Content-Security-Policy nonce (src/request/security-headers.ts). */
    nonce: string
    /**
     * The worker's own fetch (fast path, then pipeline), for the ops console's check of a page
     * after a purge; set on ops paths only.
     */
    fetchSelf: (request: Request) => Promise<Response>
    /** What the flags know of the page a GET path routes to (the page table's); ops paths only. */
    pageOf: (path: string) => PageContext
    /**
     * Set when an id page's 404 answers with no read, its address past the limit of id 404s
     * (src/request/id-misses.ts): the 404 is not stored, whatever the id names.
     */
    unread: boolean
    /** Set when a section streamed after the shell failed: the page is not stored. */
    renderFailed: boolean
    /**
     * The page's render as the renderer returned it (src/views/render-html.ts): the edge cache
     * stores the bytes it sent. Unset for a response no render made.
     */
    rendered: Rendered | undefined
  }
}
