import type { IslandProps } from './island-props'

/**
 * The buying-intent question (docs/pages.md, "Visitor flow") as a GET form into the flow, which
 * works without JavaScript. In the browser the choice is saved in place (src/client/intent.ts) and
 * the visitor stays on the listing.
 */
export function IntentChoice({ state, live }: IslandProps) {
  const intent = state.intent
  if (!intent) return null
  const status = live.intent
  return (
    <form method="get" action={intent.action} className="intent cta-band">
      <input type="hidden" name="from" value={intent.from} />
      <fieldset>
        <legend>{intent.question}</legend>
        <div className="intent-choices">
          {intent.choices.map((choice) => (
            <label key={choice.value} className="choice">
              <input type="radio" name="intent" value={choice.value} required />
              {` ${choice.label}`}
            </label>
          ))}
        </div>
      </fieldset>
      {status.kind === 'saved' ? (
        <p role="status">
          {`Thanks, noted: ${status.label}. `}
          {status.next === intent.from ? null : (
            <a className="cta" href={status.next}>
              Continue
            </a>
          )}
        </p>
      ) : (
        <>
          <button type="submit" className="cta" disabled={status.kind === 'saving'}>
            Continue
          </button>
          <p role="status">
            {status.kind === 'failed' ? 'That did not go through. Please try again.' : ''}
          </p>
        </>
      )}
    </form>
  )
}
