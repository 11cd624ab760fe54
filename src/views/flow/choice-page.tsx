import type { Head } from '../../seo/head'
import { Document } from '../document'

export interface ChoicePageProps {
  head: Head
  heading: string
  lede: string
  /** The form submits to this path with GET, so it works without JavaScript. */
  action: string
  name: string
  choices: readonly { value: string; label: string }[]
  step: string
}

/** One question of the visitor flow, as a plain HTML form of radio buttons. */
export function ChoicePage(props: ChoicePageProps) {
  return (
    <Document head={props.head}>
      <p className="lede">{props.step}</p>
      <h1>{props.heading}</h1>
      <p>{props.lede}</p>
      <form method="get" action={props.action} className="choices">
        <fieldset>
          <legend className="sr-only">{props.heading}</legend>
          {props.choices.map((choice, i) => (
            <label key={choice.value} className="choice">
              <input type="radio" name={props.name} value={choice.value} required={i === 0} />
              {` ${choice.label}`}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="cta">
          Continue
        </button>
      </form>
    </Document>
  )
}
