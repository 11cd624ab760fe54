import { EntityPaths } from './cache/entity-paths'
import { KnownPurges } from './cache/generations'
import { HotPages } from './cache/hot-pages'
import { RefusalTally } from './cache/purge-audit'
import { Refreshes } from './cache/refreshes'
import { DerivedReads } from './data/derived-reads'
import { keptCities } from './data/kept-cities'
import { keptFlags } from './flags/read-flags'
import { keptGate } from './gate/gate-store'
import { LimitedAddresses } from './gate/id-misses'
import { keptNewCities } from './gate/new-cities'
import { AccessKeys } from './request/access-keys'
import { Fragments } from './views/fragments'
import { RenderedErrors } from './views/rendered-errors'

/**
 * What an isolate keeps in memory from one request to the next, but three module-level maps
 * that only their own function reads (crawler verdicts, SQL one-liners, Sentry's back-off:
 * docs/request-flow.md, "What an isolate keeps"). It belongs to the app:
 * `createApp()` makes one, so a fresh app starts as a fresh isolate does, with nothing kept. The
 * pipeline puts it on the context (`c.get('memory')`), and each step hands on only the part it reads.
 */
export class Memory {
  /** The flag set, read from KV at most every 20 s (docs/flags.md). */
  readonly flags = keptFlags()
  /** The gate's bloom filter, refreshed in the background after five minutes. */
  readonly gate = keptGate()
  /**
   * Cities and entities added after the gate's build, asked for in the background once a minute
   * and after each newer purge (docs/request-flow.md, "The gate").
   */
  readonly newCities = keptNewCities(() => this.purges.newest)
  /**
   * Addresses past the limit of 404s of ids, each for the rest of its window: their unknown ids
   * answer with no read (docs/hardening.md).
   */
  readonly limitedAddresses = new LimitedAddresses()
  /** Purge generations, read from D1 in the background every 5 s (docs/caching.md). */
  readonly purges = new KnownPurges()
  /** The path of each profile and job answered for: another name part is redirected, no read. */
  readonly entityPaths = new EntityPaths(this.purges)
  /**
   * The tags of pages this isolate rendered, by cache key (at most PAGE_TAGS_KEPT, emptied when
   * full): which replica a page's next render may read from depends on them (docs/data.md).
   */
  readonly pageTags = new Map<string, readonly string[]>()
  /** Refused purge requests not yet written to the audit log (one write a second at most). */
  readonly purgeRefusals = new RefusalTally()
  /**
   * Reads of the tables only the cron and catalog sync write, kept a minute; the cron's refresh
   * forgets them, and so does a newer purge.
   */
  readonly derivedReads = new DerivedReads(() => this.purges.newest)
  /** Every city, read whole and again after five minutes in the background (docs/data.md). */
  readonly cities = keptCities()
  /** The most recently used stored pages, in front of the Cache API (docs/caching.md). */
  readonly hotPages = new HotPages()
  /** Background refreshes of stale pages under way: one per page at a time. */
  readonly refreshes = new Refreshes()
  /** Markup of repeated fragments (cards), rendered once per content (docs/performance.md). */
  readonly fragments = new Fragments()
  /** Error pages, rendered once per status, page target and flag variant. */
  readonly renderedErrors = new RenderedErrors()
  /** The Access team's signing keys, for the ops console (kept an hour). */
  readonly accessKeys = new AccessKeys()
}
