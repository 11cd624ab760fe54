import { useContext } from 'react'
import type { Fragments } from '../fragments'
import { Markup } from '../markup'
import { Avatar } from '../shared/avatar'
import type { CardModel } from './listing-state'

/**
 * One result of a listing: provider, job or activity, from its ready-made model. On the server
 * its inside is usually markup rendered once per model (`cardMarkup`); in the browser, React
 * renders it, and hydrates the same markup.
 */
export function Card({ card }: { card: CardModel }) {
  const markup = useContext(Markup).get(card)
  const id = card.anchor ?? undefined
  return markup === undefined ? (
    <li className="card" id={id}>
      <CardBody card={card} />
    </li>
  ) : (
    <li className="card" id={id} dangerouslySetInnerHTML={{ __html: markup }} />
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

/** The inside of each card, rendered once per model (the model's JSON is all that shapes it). */
export function cardMarkup(
  fragments: Fragments,
  cards: readonly CardModel[],
): Map<CardModel, string> {
  return new Map(
    cards.map((card) => [
      card,
      fragments.html(JSON.stringify(card), () => <CardBody card={card} />),
    ]),
  )
}
