// The browser script of listing pages and of pages with the search form (docs/browser.md). It
// does at once only what the first paint depends on, and loads the rest (React, the islands,
// navigation, the typeahead: ./islands.tsx) once the page has been painted, so nothing heavy
// runs, or downloads, before the visitor sees the page. Pages work fully without either.
import { watchPhotos } from './photos'

watchPhotos()

// Beside the results (wide screens) the filter form shows whether its panel is open or not
// (styles.css): opening the panel says so to assistive technology too. Done here, at once, not
// once React has loaded: the panel opens as soon as the document is parsed.
if (matchMedia('(min-width: 60rem)').matches)
  for (const panel of document.querySelectorAll('[data-island="filters"] details'))
    panel.setAttribute('open', '')

afterFirstPaint(() => void import('./islands'))

/**
 * Runs `then` once the page's first content is on screen: the paint timing's first contentful
 * paint, reported once the frame has been presented. A page that is hidden paints nothing until
 * shown, so it runs `then` at once, as does a browser without paint timing.
 */
function afterFirstPaint(then: () => void): void {
  if (
    document.visibilityState === 'hidden' ||
    !PerformanceObserver.supportedEntryTypes.includes('paint')
  ) {
    then()
    return
  }
  new PerformanceObserver((entries, observer) => {
    if (!entries.getEntriesByName('first-contentful-paint').length) return
    observer.disconnect()
    then()
  }).observe({ type: 'paint', buffered: true })
}
