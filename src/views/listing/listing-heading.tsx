import type { IslandProps } from './island-props'

/** The listing's heading and what it says about the results before them. */
export function ListingHeading({ state }: IslandProps) {
  return (
    <>
      <h1>{state.heading}</h1>
      {state.lede ? <p className="lede">{state.lede}</p> : null}
      {state.notice ? <p className="notice">{state.notice}</p> : null}
    </>
  )
}
