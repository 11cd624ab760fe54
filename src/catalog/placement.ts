// Where the catalog lives (docs/scale.md): the city is the unit of placement, never split; each
// state is on one shard, a state too large for one lists some cities (a metro) on others. Layouts
// are compiled in; an environment names its own in wrangler.toml (`SHARD_LAYOUT`), so placement
// changes only with a deploy, and a page finds its shard with no read.
import { stateOfCitySlug } from './cities'
import { STATES } from './states'

export interface Layout {
  /** How many shards: bindings SHARD_00 up to SHARD_{shards - 1}. */
  shards: number
  /** Every state's shard, by its lower-case code: where its cities live unless listed below. */
  states: Readonly<Record<string, number>>
  /** Cities placed apart from their state, by slug. */
  cities: Readonly<Record<string, number>>
}

// West of the Mississippi (and the Pacific): the second shard of the two-shard layouts, packed
// so that each state stays whole and neighbours share a shard.
const WEST = new Set(
  'ak az ar ca co hi ia id ks la mn mo mt nd ne nm nv ok or sd tx ut wa wy'.split(' '),
)

function everyState(shardOf: (state: string) => number): Record<string, number> {
  return Object.fromEntries(
    Object.keys(STATES).map((code) => [code.toLowerCase(), shardOf(code.toLowerCase())]),
  )
}

const eastWest = everyState((state) => (WEST.has(state) ? 1 : 0))

// Eight regions of whole, neighbouring states, each about an eighth of the providers of the
// 1M-provider catalog (115,000 to 132,000 of them; the bench's sharded layout). No state needs
// a split at that size: California, the largest, is 95,000 providers, well under a shard's plan.
const REGIONS = [
  'ny ct ma me nh vt ri',
  'pa nj md de dc va wv',
  'fl ga sc nc al pr',
  'tx ok la ar ms',
  'oh mi in il',
  'wi mn ia mo ne sd nd ky tn',
  'ca nv hi ak',
  'wa or id mt wy co ut az nm ks',
].map((states) => new Set(states.split(' ')))

const byRegion = everyState((state) => REGIONS.findIndex((region) => region.has(state)))

/**
 * The layouts an environment may name. `two`, the default of `npm start`, the tests and the
 * bench, splits Georgia: Atlanta on the first shard, the rest of the state (its neighbours
 * included) with the West on the second, so that a state page reads two shards and a city's
 * nearby cities sit on another shard, as at scale. `one` is one shard beside control. `eight`,
 * eight regions of the US, is the bench's sharded layout (`npm run bench -- --layout eight`).
 */
export const LAYOUTS = {
  one: { shards: 1, states: everyState(() => 0), cities: {} },
  two: { shards: 2, states: { ...eastWest, ga: 1 }, cities: { 'atlanta-ga': 0 } },
  eight: { shards: 8, states: byRegion, cities: {} },
  staging: { shards: 2, states: eastWest, cities: {} },
  production: { shards: 2, states: eastWest, cities: {} },
} as const satisfies Record<string, Layout>

export type LayoutName = keyof typeof LAYOUTS

/** The layout named `name` (an environment's SHARD_LAYOUT); null for a name no layout has. */
export function layoutNamed(name: string): Layout | null {
  return Object.hasOwn(LAYOUTS, name) ? LAYOUTS[name as LayoutName] : null
}

/**
 * The shard of the city `slug`: its own when the layout lists it, else its state's (the rule for
 * a city added after the deploy). Null for a slug of no state the product lists.
 */
export function shardOfCity(layout: Layout, slug: string): number | null {
  const listed = layout.cities[slug]
  if (listed !== undefined) return listed
  const state = stateOfCitySlug(slug)
  return state === null ? null : (layout.states[state] ?? null)
}

/** The shards holding the cities of `state` (lower-case code), in order: one unless it is split. */
export function shardsOfState(layout: Layout, state: string): number[] {
  const home = layout.states[state]
  if (home === undefined) return []
  const shards = new Set([home])
  for (const [slug, shard] of Object.entries(layout.cities))
    if (stateOfCitySlug(slug) === state) shards.add(shard)
  return [...shards].sort((a, b) => a - b)
}

/** The binding of shard `n`: SHARD_00, SHARD_01, … */
export function shardBindingName(n: number): `SHARD_${string}` {
  return `SHARD_${String(n).padStart(2, '0')}`
}
