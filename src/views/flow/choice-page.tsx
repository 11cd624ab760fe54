import type { Head } from '../../seo/head'
import { Document } from '../document'

/** One question of a flow step: radio buttons of one name. */
export interface Question {
  name: string
  legend: string
  choices: readonly { value: string; label: string }[]
  /** The choice already made (answered before, or sent with the rest of the form): checked. */
  chosen?: string | null
}

export interface ChoicePageProps {
  head: Head
  heading: string
  lede: string
  /** The form submits to this path with GET, so it works without JavaScript. */
  action: string
  questions: readonly Question[]
  /** Carried through the form unchanged (where the visitor came from); null: left out. */
  hidden?: Record<string, string | null>
  step: string
  /** What the visitor told us before, said back to them. */
  notice?: string | null
}

/** A step of the visitor flow, as a plain HTML form of radio buttons. */
export function ChoicePage(props: ChoicePageProps) {
  // One question is the page's heading; several each show their own.
  const single = props.questions.length === 1
  return (
    <Document head={props.head}>
      <p className="lede">{props.step}</p>
      <h1>{props.heading}</h1>
      <p>{props.lede}</p>
      {props.notice ? <p role="status">{props.notice}</p> : null}
      <form method="get" action={props.action} className="choices">
        {Object.entries(props.hidden ?? {}).map(([name, value]) =>
          value === null ? null : <input key={name} type="hidden" name={name} value={value} />,
        )}
        {props.questions.map((question) => (
          <fieldset key={question.name}>
            <legend className={single ? 'sr-only' : undefined}>{question.legend}</legend>
            {question.choices.map((choice, i) => (
              <label key={choice.value} className="choice">
                <input
                  type="radio"
                  name={question.name}
                  value={choice.value}
                  required={i === 0}
                  defaultChecked={choice.value === question.chosen}
                />
                {` ${choice.label}`}
              </label>
            ))}
          </fieldset>
        ))}
        <button type="submit" className="cta">
          Continue
        </button>
      </form>
    </Document>
  )
}
