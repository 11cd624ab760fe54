import { Avatar } from '../shared/avatar'
import type { CardModel } from './listing-state'

/** One result of a listing: provider, job or activity, from its ready-made model. */
export function Card({ card }: { card: CardModel }) {
  return (
    <li className="card" id={card.anchor ?? undefined}>
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
    </li>
  )
}
