import BitSetModule from 'bloom-filters/dist/bloom/bit-set.js'
import BloomModule from 'bloom-filters/dist/bloom/bloom-filter.js'
import { isId } from '../catalog/ranges'

/** The gate's word on a URL: whether its slugs may exist, and the breadcrumb of each check. */
export interface GateAnswer {
  known: boolean
  crumbs: string[]
}

// CommonJS interop: bundlers hand over the class, Node's ESM loader the exports object.
const BloomFilter = interop(BloomModule)
const BitSet = interop(BitSetModule)
type BloomFilter = InstanceType<typeof BloomFilter>

function interop<T>(m: T): T {
  return (m as { default?: T }).default ?? m
}

/** The gate's bloom filter error rate: 0.01 % false positives (docs/request-flow.md, "The gate"). */
export const GATE_ERROR_RATE = 0.0001

/** Catalog data behind a URL: city slugs, and entities by numeric id. */
export type GateKind = 'city' | 'provider' | 'job'

/** Entity kinds with increasing ids: an id up to the build's watermark (the highest id it saw),
 * or newer than the filter by at most NEW_ID_MARGIN, passes to control's directory, which
 * decides; one further above cannot exist yet, since no more are created between two builds. */
export const ENTITY_KINDS = ['provider', 'job'] as const
export type EntityKind = (typeof ENTITY_KINDS)[number]

/**
 * How far above the watermark an id may still be new: far more than a marketplace adds in the
 * ten minutes between builds (the cron) plus the five an isolate keeps its gate, so an id above
 * it cannot exist yet and is refused before any read.
 */
export const NEW_ID_MARGIN = 100_000

export interface GateMeta {
  version: 1
  /**
   * What the bits hold: city slugs alone. Absent in builds that held every provider and job id
   * too, which the cron builds again rather than extends.
   */
  holds?: 'cities'
  builtAt: string
  items: number
  size: number
  hashes: number
  seed: number
  watermarks: Record<EntityKind, number>
  /**
   * The items the filter was sized for at GATE_ERROR_RATE (absent in older builds: `items`). A
   * build leaves room above its items so additions can be taken in without a rebuild
   * (src/gate/build-gate.ts, `extendGate`), until they pass it.
   */
  capacity?: number
  /**
   * The last number of the city log (migrations/control/0001_control.sql) when the build began:
   * cities past it are newer than the filter (src/gate/new-cities.ts). Absent in older builds.
   */
  cityAdditions?: number
}

const MAX_ANSWERS = 10_000
/** An entity's key in the city log (`provider:12`), where the rest are city slugs. */
export const ENTITY_KEY = /^(provider|job):(\d+)$/
/** Longer than any slug the catalog makes (a city's, a keyword's). */
export const MAX_SLUG = 100

/**
 * The filter of every city slug, and the highest provider and job ids, as built by build-gate.ts
 * and kept in KV: its size grows with the cities, never with the providers.
 */
export class GateFilter {
  readonly #bloom: BloomFilter
  #meta: GateMeta
  /** Answers worked out already: hashing is the cost of a check, and a few slugs make most. */
  readonly #answers = new Map<string, boolean>()

  constructor(bloom: BloomFilter, meta: GateMeta) {
    this.#bloom = bloom
    this.#meta = meta
  }

  get meta(): GateMeta {
    return this.#meta
  }

  /** A filter for `items`, sized for `capacity` (at least `items`). */
  static create(
    items: number,
    meta: Omit<GateMeta, 'size' | 'hashes' | 'seed' | 'items' | 'capacity'>,
    capacity = items,
  ) {
    const room = Math.max(items, capacity, 1)
    const bloom = BloomFilter.create(room, GATE_ERROR_RATE)
    return new GateFilter(bloom, {
      ...meta,
      items,
      capacity: room,
      size: bloom._size,
      hashes: bloom._nbHashes,
      seed: bloom.seed,
    })
  }

  static fromBytes(bytes: ArrayBuffer, meta: GateMeta): GateFilter {
    const bloom = new BloomFilter(meta.size, meta.hashes)
    bloom.seed = meta.seed
    const bits = new BitSet(meta.size)
    if (bits.array.byteLength !== bytes.byteLength) throw new Error('gate filter size mismatch')
    bits.array = new Uint8Array(bytes)
    bloom._filter = bits
    return new GateFilter(bloom, meta)
  }

  /** Answers kept (bounded in number, and each key by MAX_SLUG). */
  get answersKept(): number {
    return this.#answers.size
  }

  bytes(): Uint8Array {
    return this.#bloom._filter.array
  }

  add(kind: GateKind, value: string | number): void {
    this.#bloom.add(`${kind}:${value}`)
    this.#answers.clear()
  }

  /**
   * Takes in what was added after the build: city slugs and entity keys (`provider:12`) as the
   * city log records them, up to its number `cityAdditions`. A slug is added to the bits; an
   * entity's id only raises its watermark: every new id is in the log, so one above it cannot
   * exist yet.
   */
  extend(added: readonly string[], cityAdditions: number): void {
    const watermarks = { ...this.#meta.watermarks }
    let slugs = 0
    for (const value of added) {
      const entity = ENTITY_KEY.exec(value)
      const kind = entity?.[1] as EntityKind | undefined
      if (kind && entity) watermarks[kind] = Math.max(watermarks[kind], Number(entity[2]))
      else {
        this.add('city', value)
        slugs++
      }
    }
    this.#meta = { ...this.#meta, items: this.#meta.items + slugs, watermarks, cityAdditions }
  }

  /**
   * False only when `value` is certainly not in the catalog. A city slug is checked against the
   * bits; an entity's id only against its watermark: the filter holds no ids (their bits would
   * grow with the providers, past a KV value at tens of millions), so an id up to NEW_ID_MARGIN
   * above it may exist and control's directory read decides (docs/scale.md, "The gate for ids").
   */
  has(kind: GateKind, value: string | number): boolean {
    if (isEntityKind(kind)) {
      const id = Number(value)
      return isId(id) && id <= this.meta.watermarks[kind] + NEW_ID_MARGIN
    }
    // No catalog slug is this long; nor is an answer kept for one (the answers stay small).
    if (String(value).length > MAX_SLUG) return false
    return this.#check(`${kind}:${value}`)
  }

  #check(key: string): boolean {
    let answer = this.#answers.get(key)
    if (answer === undefined) {
      answer = this.#bloom.has(key)
      if (this.#answers.size >= MAX_ANSWERS) this.#answers.clear()
      this.#answers.set(key, answer)
    }
    return answer
  }
}

function isEntityKind(kind: GateKind): kind is EntityKind {
  return (ENTITY_KINDS as readonly string[]).includes(kind)
}
