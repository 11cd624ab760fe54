import type { CardModel, ListingState } from '../views/listing/listing-state'
import { MARKUP_KEY } from '../views/markup'

/**
 * The state a listing page embeds, with its cards taken from the page itself: the page sends
 * each card once, as markup (src/views/listing/listing-layout.tsx). Each card here stands for
 * one `li.card` of the results, and `markup` maps its key to that element's inner HTML, which the
 * results island places as it is (`Placed`, src/views/markup.tsx): React hydrates the same
 * document, and renders the cards of every later state from their models.
 */
export function withPlacedCards(
  state: ListingState,
  results: ParentNode,
): { state: ListingState; markup: Map<string, string> } {
  const markup = new Map<string, string>()
  const cards = [...results.querySelectorAll(':scope .cards > li.card')].map((li, i) => {
    const card: CardModel = {
      key: `placed-${i}`,
      anchor: li.id || null,
      avatar: null,
      title: '',
      href: null,
      lines: [],
    }
    markup.set(MARKUP_KEY.card(JSON.stringify(card)), li.innerHTML)
    return card
  })
  return { state: { ...state, results: { ...state.results, cards } }, markup }
}
