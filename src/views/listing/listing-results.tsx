import { Card } from './card'
import type { IslandProps } from './island-props'
import { Pagination } from './pagination'
import { number } from '../parts/format'

/** The results of a listing state: what is shown, the cards, and the pages. */
export function ListingResults({ state, live }: IslandProps) {
  const { results } = state
  const first = results.first
  return (
    <section id="results" className="results" aria-labelledby="results-title" aria-busy={live.busy}>
      <h2 id="results-title" className="sr-only">
        Results
      </h2>
      {results.cards.length ? (
        <>
          <div className="results-head" role="status">
            <span>{`Showing ${first}–${first + results.cards.length - 1} of ${number(results.total)}`}</span>
            <span>{results.sortLabel}</span>
          </div>
          <ul className="cards">
            {results.cards.map((card) => (
              <Card key={card.key} card={card} />
            ))}
          </ul>
          <Pagination current={results.page} last={results.last} hrefs={results.hrefs} />
        </>
      ) : (
        <p className="notice" role="status">
          {results.empty}
          {state.filtered ? (
            <>
              {' '}
              <a href={state.path}>Clear the filters</a>
              {' to see everything.'}
            </>
          ) : null}
        </p>
      )}
    </section>
  )
}
