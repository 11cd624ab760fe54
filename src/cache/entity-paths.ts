import type { KnownPurges } from './generations'
import { REPLICATION_WINDOW_MS } from './generations'
import type { CacheTag } from './tags'

/** Entities whose path an isolate keeps; past it, all are dropped (each is read again once). */
const MAX_PATHS = 10_000

/**
 * The canonical path of each entity this isolate has answered for (`provider:8` →
 * `/p/maria-g-8`, from the profile's 200 or its 301; src/cache/entity-redirect.ts), kept by the
 * entity's tag, so only entities that exist are kept and never a name a client made up. A path is
 * trusted while no purge of its tag (a rename, a removal) is newer than the answer, or so close
 * before it that a lagging replica may have given the answer (REPLICATION_WINDOW_MS), and only
 * while the isolate's purges are current (read within REFRESH_MS: an idle isolate reads first).
 */
export class EntityPaths {
  readonly #paths = new Map<string, { path: string; at: number }>()
  readonly #purges: KnownPurges

  constructor(purges: KnownPurges) {
    this.#purges = purges
  }

  /** Keeps `path` as the entity `tag`'s, as answered now. */
  learn(tag: CacheTag, path: string): void {
    if (this.#paths.size >= MAX_PATHS && !this.#paths.has(tag)) this.#paths.clear()
    this.#paths.set(tag, { path, at: Date.now() })
  }

  /** The entity's path while it can be trusted; undefined when it must be read. */
  pathOf(tag: CacheTag): string | undefined {
    const kept = this.#paths.get(tag)
    if (!kept || !this.#purges.current) return undefined
    if (this.#purges.newestOf([tag]) < kept.at - REPLICATION_WINDOW_MS) return kept.path
    this.#paths.delete(tag)
    return undefined
  }
}
