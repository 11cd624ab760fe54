import type { ListingState } from '../views/listing/listing-state'
import type { DataAnswer } from './data'
import { keep, loadData, prefetch } from './data'
import { chooseIntent, intentForm } from './intent'
import { crumb } from './report'
import { getView, setLive, setView, subscribe } from './store'

/** A route load slower than this becomes a full page load (docs/browser.md). */
export const ROUTE_TIMEOUT_MS = 3_800

interface How {
  /** A new history entry (links, filters), or the entry already current (back, forward). */
  push: boolean
  /** The filter form asked for it: its fields already show the new state. */
  fromForm: boolean
}

let latest = 0
let inFlight: AbortController | null = null

/**
 * Moves a listing to another state (filters, sort, page) without a full reload: the state
 * comes from `/_data{path}`, the islands render it, history records it. A newer navigation
 * cancels an older one; a slow, failed or unexpected answer loads the page in full instead.
 */
export async function navigate(url: URL, how: How): Promise<void> {
  const id = ++latest
  inFlight?.abort()
  const controller = new AbortController()
  inFlight = controller
  const timer = setTimeout(() => fullLoad(url, how), ROUTE_TIMEOUT_MS)
  setLive({ busy: true })
  let answer: DataAnswer
  try {
    answer = await loadData(url, controller.signal)
  } catch {
    // Cancelled by a newer navigation, or the network failed ('Failed to fetch', 'Load failed').
    if (!controller.signal.aborted) fullLoad(url, how)
    return
  } finally {
    clearTimeout(timer)
  }
  if (id !== latest) return
  const { state, live } = getView()
  // A missing page, a failure, or a state of another build: the server renders the page.
  if (answer.kind !== 'state' || answer.state.build !== state.build) return fullLoad(url, how)

  if (how.push) {
    keep(new URL(location.href), state)
    history.replaceState({ listing: true, scroll: scrollY }, '')
    history.pushState({ listing: true, scroll: 0 }, '', url)
  }
  crumb(`navigate ${url.pathname}${url.search}`)
  setView({
    state: answer.state,
    live: { ...live, busy: false, formKey: how.fromForm ? live.formKey : live.formKey + 1 },
  })
  describe(answer.state)
  if (!how.push) scrollTo(0, (history.state as { scroll?: number } | null)?.scroll ?? 0)
  else if (!how.fromForm) document.getElementById('results')?.scrollIntoView({ block: 'start' })
}

/** The full page load every failure falls back to; back and forward replace their entry. */
function fullLoad(url: URL, how: How): void {
  latest++
  inFlight?.abort()
  if (how.push) location.assign(url.href)
  else location.replace(url.href)
}

/** The document's title, canonical link and robots rule follow the state. */
function describe(state: ListingState): void {
  document.title = state.title
  if (state.canonical)
    document.querySelector('link[rel="canonical"]')?.setAttribute('href', state.canonical)
  document.querySelector('meta[name="robots"]')?.setAttribute('content', state.robots)
}

/** A link the router takes: inside an island, to another state of this listing. */
export function listingLink(target: EventTarget | null): URL | null {
  const link = target instanceof Element ? target.closest('a[href]') : null
  if (!(link instanceof HTMLAnchorElement) || !link.closest('[data-island]')) return null
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return null
  const url = new URL(link.href)
  return url.origin === location.origin && url.pathname === getView().state.path ? url : null
}

function filterForm(target: EventTarget | null): HTMLFormElement | null {
  const form = target instanceof Element ? target.closest('form') : null
  return form?.closest('[data-island="filters"]') ? form : null
}

/** What the filter form would submit, without empty fields ("Any" is no parameter). */
function formUrl(form: HTMLFormElement): URL {
  const url = new URL(form.action)
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value !== '') url.searchParams.append(name, value)
  }
  return url
}

/** Takes over listing links, the filter form and the intent form; everything else is untouched. */
export function startRouter(): void {
  history.scrollRestoration = 'manual'
  history.replaceState({ listing: true, scroll: scrollY }, '')

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const url = listingLink(event.target)
    if (!url) return
    event.preventDefault()
    void navigate(url, { push: true, fromForm: false })
  })

  document.addEventListener('submit', (event) => {
    const form = filterForm(event.target)
    const intent = intentForm(event.target)
    if (form) {
      event.preventDefault()
      void navigate(formUrl(form), { push: true, fromForm: true })
    } else if (intent && getView().live.intent.kind !== 'failed') {
      // After a failed save, the form goes the plain way: through the flow's own page.
      event.preventDefault()
      void chooseIntent(intent)
    }
  })

  // A change applies at once: no need to find the button.
  document.addEventListener('change', (event) => {
    const form = filterForm(event.target)
    const intent = intentForm(event.target)
    if (form) void navigate(formUrl(form), { push: true, fromForm: true })
    else if (intent) void chooseIntent(intent)
  })

  window.addEventListener('popstate', () => {
    if (location.pathname === getView().state.path)
      void navigate(new URL(location.href), { push: false, fromForm: false })
  })

  prefetchAhead()
}

/**
 * Hovered or focused listing links, and the page links in view, are fetched ahead, with the
 * prefetch purpose.
 */
function prefetchAhead(): void {
  const ahead = (event: Event) => {
    const url = listingLink(event.target)
    if (url) prefetch(url)
  }
  document.addEventListener('pointerover', ahead)
  document.addEventListener('focusin', ahead)
  // So are the page links in view, unless the visitor asked to save data.
  const saveData = (navigator as { connection?: { saveData?: boolean } }).connection?.saveData
  if (saveData || !('IntersectionObserver' in window)) return
  const inView = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue
      inView.unobserve(entry.target)
      const url = listingLink(entry.target)
      if (url) prefetch(url)
    }
  })
  const watch = () => {
    for (const link of document.querySelectorAll('[data-island] .pagination a[href]'))
      inView.observe(link)
  }
  watch()
  // After each render: the islands re-render asynchronously.
  subscribe(() => setTimeout(watch, 100))
}
