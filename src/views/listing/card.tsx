import type { Fragments } from '../fragments'
import { fragment } from '../fragment'
import { useContext } from 'react'
import { Markup, MARKUP_KEY, Placed } from '../markup'
import { Avatar } from '../parts/avatar'
import type { CardModel } from './listing-state'

/**
 * One result of a listing: provider, job or activity, from its ready-made model. On the server
 * its inside is usually markup rendered once per model (`cardMarkup`); in the browser, React
 * renders it, and hydrates the same markup.
 */
export function Card({ card }: { card: CardModel }) {
  // Serialised only where markup was rendered before (on the server), to find it by content.
  const placing = useContext(Markup).size > 0
  return (
    <Placed
      tag="li"
      className="card"
      id={card.anchor ?? undefined}
      markupKey={placing ? MARKUP_KEY.card(serialised.get(card) ?? JSON.stringify(card)) : null}
    >
      <CardBody card={card} />
    </Placed>
  )
}

function CardBody({ card }: { card: CardModel }) {
  return (
    <>
      {card.avatar ? <Avatar {...card.avatar} /> : null}
      <div>
        <h3>{card.href ? <a href={card.href}>{card.title}</a> : card.title}</h3>
        {card.lines.map((line, i) =>
          line.kind === 'badges' ? (
            <ul key={i} className="badges" aria-label="Badges">
              {line.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : line.kind === 'link' ? (
            <p key={i} className={line.className ?? undefined}>
              <a href={line.href}>{line.text}</a>
            </p>
          ) : (
            <p key={i} className={line.className ?? undefined}>
              {line.text}
            </p>
          ),
        )}
      </div>
    </>
  )
}

/** The inside of a card: its model is all that shapes it. */
const CARD = fragment('card', CardBody, ({ card }) => JSON.stringify(card))

/**
 * Each model's JSON as `cardMarkup` made it, for the page's render that follows to find its
 * markup without serialising the model again; a copy of a model is serialised again.
 */
const serialised = new WeakMap<CardModel, string>()

/** The inside of each card, rendered once per model: the model is all that shapes it. */
export function cardMarkup(fragments: Fragments, cards: readonly CardModel[]): [string, string][] {
  return cards.map((card) => {
    const content = JSON.stringify(card)
    serialised.set(card, content)
    return [MARKUP_KEY.card(content), fragments.html(CARD, { card }, content)]
  })
}
