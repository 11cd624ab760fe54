import type { ReactNode } from 'react'
import type { MessageErrors, MessageField, MessageValues } from '../../queries/message-form'
import { MAX_EMAIL, MAX_MESSAGE, MAX_NAME } from '../../queries/message-form'
import { TURNSTILE_ORIGIN } from '../../lib/content-security-policy'
import { useSite } from '../site-context'

export interface MessageFormProps {
  /** Where the form posts: the provider's message path. */
  action: string
  /** "Maria", or a centre's name. */
  recipient: string
  values: MessageValues
  errors: MessageErrors
  /** A problem with the whole form (too many messages, no cookie). */
  problem?: string | null
}

/**
 * The guest message form: a plain POST form, so it works without JavaScript. The server checks
 * everything again; the browser's own checks (required, lengths, email) only save a round trip.
 */
export function MessageForm(props: MessageFormProps) {
  const { values, errors } = props
  return (
    <form method="post" action={props.action} className="message-form">
      {props.problem ? (
        <p className="form-problem" role="alert">
          {props.problem}
        </p>
      ) : null}
      <Field name="name" label="Your name" error={errors.name}>
        {(described) => (
          <input
            id="message-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={MAX_NAME}
            defaultValue={values.name}
            {...described}
          />
        )}
      </Field>
      <Field name="email" label="Your email" error={errors.email}>
        {(described) => (
          <input
            id="message-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={MAX_EMAIL}
            defaultValue={values.email}
            {...described}
          />
        )}
      </Field>
      <Field name="message" label={`Your message to ${props.recipient}`} error={errors.message}>
        {(described) => (
          <textarea
            id="message-message"
            name="message"
            rows={5}
            required
            maxLength={MAX_MESSAGE}
            defaultValue={values.message}
            {...described}
          />
        )}
      </Field>
      <Turnstile />
      <p className="hint">Only {props.recipient} sees your message and your email address.</p>
      <button type="submit" className="cta">
        Send message
      </button>
    </form>
  )
}

type Described = { 'aria-invalid'?: true; 'aria-describedby'?: string }

/** A labelled field, its error said next to it and tied to the control for screen readers. */
function Field(props: {
  name: MessageField
  label: string
  error: string | undefined
  children: (described: Described) => ReactNode
}) {
  const errorId = `message-${props.name}-error`
  return (
    <div className="field">
      <label htmlFor={`message-${props.name}`}>{props.label}</label>
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
      {props.children(props.error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
    </div>
  )
}

/**
 * Cloudflare Turnstile's widget, where JavaScript runs: its script fills the form's
 * `cf-turnstile-response` field, which the server verifies (docs/hardening.md, "Turnstile").
 * Without JavaScript the form posts without it and is counted per network, as before.
 */
function Turnstile() {
  const { turnstileSiteKey } = useSite()
  if (!turnstileSiteKey) return null
  return (
    <>
      <div className="cf-turnstile" data-sitekey={turnstileSiteKey} data-action="guest-message" />
      <script src={`${TURNSTILE_ORIGIN}/turnstile/v0/api.js`} async defer />
    </>
  )
}
