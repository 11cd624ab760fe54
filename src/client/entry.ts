// The browser script of listing pages and of pages with the search form (docs/browser.md). It
// does at once only what the page's look depends on, and loads the rest (React, the islands,
// navigation, the typeahead: ./islands.tsx) on the visitor's first interaction with the page,
// so nothing heavy runs, or downloads, while the page loads and nobody uses it yet. Pages work
// fully without either.
import { watchPhotos } from './photos'

watchPhotos()

// Beside the results (wide screens) the filter form shows whether its panel is open or not
// (styles.css): opening the panel says so to assistive technology too. Done here, at once, not
// once React has loaded: the panel opens as soon as the document is parsed.
if (matchMedia('(min-width: 60rem)').matches)
  for (const panel of document.querySelectorAll('[data-island="filters"] details'))
    panel.setAttribute('open', '')

/** What says the visitor is using the page: a pointer, a key, a focus (and a scroll, below). */
const INTERACTIONS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'wheel']

// A choice made in an island's form before React took over (a filter, the buying intent) is
// applied once it has, as it would have been at once: its change is dispatched again.
const changed = new Map<Element, Element>()
const remember = (event: Event) => {
  const target = event.target
  const form = target instanceof Element ? target.closest('[data-island] form') : null
  if (form && target instanceof Element) changed.set(form, target)
}
document.addEventListener('change', remember)

onFirstInteraction(() => void start())

async function start(): Promise<void> {
  const { hydrated } = await import('./islands')
  await hydrated
  document.removeEventListener('change', remember)
  for (const target of changed.values())
    if (target.isConnected) target.dispatchEvent(new Event('change', { bubbles: true }))
}

/**
 * Runs `then` once, on the first sign that the visitor is using the page. A form or a link
 * used before React is there works as without JavaScript (forms are GETs); what React adds
 * follows moments later.
 */
function onFirstInteraction(then: () => void): void {
  const options = { capture: true, passive: true } as const
  const once = () => {
    for (const type of INTERACTIONS) document.removeEventListener(type, once, options)
    removeEventListener('scroll', once, options)
    then()
  }
  for (const type of INTERACTIONS) document.addEventListener(type, once, options)
  addEventListener('scroll', once, options)
}
