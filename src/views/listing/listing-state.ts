import { lastPage, PAGE_SIZE } from '../../catalog/filters'
import type { FilterField } from '../../queries/filter-fields'
import type { Head } from '../../seo/head'
import type { ListingPage } from '../../seo/listing-head'
import { BUILD } from '../assets'
import { count } from '../parts/format'
import { pageWindow } from './pagination'

/** A card of a listing with every text final, so the browser renders exactly what the server did. */
export interface CardModel {
  key: string
  /** The element id, for links to the card (Event JSON-LD names activities by it). */
  anchor: string | null
  /** `eager`: on the first screen, so its photo loads at once (src/views/parts/avatar.tsx). */
  avatar: { photoUrl: string | null; initials: string; tone: number; eager: boolean } | null
  title: string
  href: string | null
  lines: readonly CardLine[]
}

export type CardLine =
  | { kind: 'text'; className: string | null; text: string }
  | { kind: 'badges'; items: readonly string[] }
  /** A next step beside the card's own link (an activity's care nearby). */
  | { kind: 'link'; className: string | null; href: string; text: string }

/** The cards whose photos may show on the first screen, at the top of a listing. */
const EAGER_CARDS = 2

/** The buying-intent question: a GET form into the visitor flow (docs/pages.md, "Visitor flow"). */
export interface IntentQuestion {
  action: string
  question: string
  choices: readonly { value: string; label: string }[]
  /** The listing's own path: where the flow returns (docs/pages.md, "Visitor flow"). */
  from: string
}

/**
 * Everything of a listing page that changes between its states (filters, sort, page). The
 * islands render it on the server, the page embeds it as JSON, and `/_data{path}` answers it,
 * so the browser renders a new state exactly as the server would (docs/browser.md).
 */
export interface ListingState {
  /** The client build it was made for: any other build loads the page in full. */
  build: string
  /** The plain listing's path: the filter form's action and the way back from filters. */
  path: string
  title: string
  canonical: string | null
  robots: string
  heading: string
  lede: string | null
  notice: string | null
  filters: readonly FilterField[]
  filtered: boolean
  results: {
    total: number
    /** The position of the first card among all results. */
    first: number
    page: number
    last: number
    sortLabel: string
    cards: readonly CardModel[]
    /** Links of the pages the pagination shows, by page number. */
    hrefs: Readonly<Record<string, string>>
    /** What to say when there is nothing to show. */
    empty: string
  }
  intent: IntentQuestion | null
}

export interface ListingInput {
  head: Pick<Head, 'title' | 'canonical' | 'robots'>
  listing: ListingPage
  heading: string
  /** The results, one and many ("babysitter"), and where they are, if anywhere ("Atlanta, GA"). */
  found: { one: string; many: string; place: string | null }
  /** What the plain listing says of its results: "near you", "coming up or running now". */
  unfiltered: string
  notice: string | null
  filters: readonly FilterField[]
  total: number
  /** "Sorted by: Recommended": what the order of the cards is. */
  sortLabel: string
  cards: readonly CardModel[]
  pageHref: (page: number) => string
  empty: string
  intent: IntentQuestion | null
}

export function listingState(input: ListingInput): ListingState {
  const { path, page, filtered } = input.listing
  const last = lastPage(input.total)
  const shown = new Set([page - 1, page + 1, ...pageWindow(page, last)])
  const hrefs: Record<string, string> = {}
  for (const n of shown) if (n && n >= 1 && n <= last) hrefs[n] = input.pageHref(n)
  return {
    build: BUILD,
    path,
    title: input.head.title,
    canonical: input.head.canonical ?? null,
    robots: input.head.robots,
    heading: page > 1 ? `${input.heading} (page ${page})` : input.heading,
    lede: lede(input),
    notice: input.notice,
    filters: input.filters,
    filtered,
    results: {
      total: input.total,
      first: (page - 1) * PAGE_SIZE + 1,
      page,
      last,
      sortLabel: input.sortLabel,
      cards: input.cards.map((card, i) =>
        card.avatar && i < EAGER_CARDS
          ? { ...card, avatar: { ...card.avatar, eager: true } }
          : card,
      ),
      hrefs,
      empty: input.empty,
    },
    intent: input.intent,
  }
}

/**
 * "12 babysitters match your filters in Atlanta, GA.", "1 babysitter matches …": none when there
 * are no results.
 */
function lede({ total, found, unfiltered, listing }: ListingInput): string | null {
  if (total === 0) return null
  const which = listing.filtered
    ? (total === 1 ? 'matches' : 'match') + ' your filters'
    : unfiltered
  const where = found.place ? ` in ${found.place}` : ''
  return `${count(total, found.one, found.many)} ${which}${where}.`
}
