// The guest message form (docs/pages.md, "Guest messages"): its fields as typed, and what is
// wrong with them, worded for the person who typed them.

import { textFault } from '../lib/text-rule'

export const MESSAGE_FIELDS = ['name', 'email', 'message'] as const
export type MessageField = (typeof MESSAGE_FIELDS)[number]

/** What the visitor typed, as typed: given back with the form when something is wrong. */
export type MessageValues = Record<MessageField, string>
export type MessageErrors = Partial<Record<MessageField, string>>

export const MAX_NAME = 80
export const MAX_EMAIL = 254
export const MIN_MESSAGE = 10
export const MAX_MESSAGE = 2000

/** Turnstile's token (at most 2,048 characters, URL-safe but for a few) and its field's name. */
const TURNSTILE_BYTES = 3 * 2048 + 32

/**
 * The largest body a browser sends for the form within its own limits (`maxlength`, which counts
 * UTF-16 units): a unit is at most 3 bytes of UTF-8, each percent-encoded, so 9 bytes (a line
 * break, sent as CR LF, is 6); and a little for the field names. A 2,000-character message in
 * Chinese fits. And Turnstile's token.
 */
export const MESSAGE_FORM_BYTES = 9 * (MAX_NAME + MAX_EMAIL + MAX_MESSAGE) + 256 + TURNSTILE_BYTES

export const EMPTY_MESSAGE: MessageValues = { name: '', email: '', message: '' }

// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// Characters no one types into a name or an address that change how it reads, or hide in it:
// bidi marks, embeddings, overrides and isolates, zero-width spaces and joiners, the word
// joiner and invisible operators, the byte order mark.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/

/** The fields of a posted form, the first value of each (a repeated field counts once). */
export function messageValues(form: URLSearchParams): MessageValues {
  return {
    name: form.get('name') ?? '',
    email: form.get('email') ?? '',
    message: form.get('message') ?? '',
  }
}

/** The message as stored, or what is wrong with each field. */
export function checkMessage(
  values: MessageValues,
  recipient: string,
): { ok: true; message: MessageValues } | { ok: false; errors: MessageErrors } {
  const name = values.name.replace(/\s+/g, ' ').trim()
  const email = values.email.trim()
  // A browser sends a textarea's line breaks as CR LF; a pasted tab reads as a space.
  const message = values.message.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').trim()
  const errors: MessageErrors = {}
  if (!name) errors.name = 'Enter your name.'
  else if (name.length > MAX_NAME) errors.name = `Keep your name to ${MAX_NAME} characters.`
  else if (textFault(name)) errors.name = faultIn('name', name)
  else if (hidden(name)) errors.name = HIDDEN('name')
  if (!email) errors.email = `Enter your email address, so ${recipient} can reply.`
  else if (textFault(email)) errors.email = faultIn('email address', email)
  else if (hidden(email)) errors.email = HIDDEN('email address')
  else if (email.length > MAX_EMAIL || !EMAIL.test(email))
    errors.email = 'Enter an email address like name@example.com.'
  if (textFault(message, { lineBreaks: true })) errors.message = faultIn('message', message, true)
  else if (message.length < MIN_MESSAGE)
    errors.message = `Write a message of at least ${MIN_MESSAGE} characters.`
  else if (message.length > MAX_MESSAGE)
    errors.message = `Keep your message to ${MAX_MESSAGE.toLocaleString('en-US')} characters (it has ${message.length.toLocaleString('en-US')}).`
  return Object.keys(errors).length
    ? { ok: false, errors }
    : { ok: true, message: { name, email, message } }
}

const hidden = (text: string) => CONTROL.test(text) || INVISIBLE.test(text)
/** The text rule's refusal (src/lib/text-rule.ts), worded for the visitor: which character, where. */
function faultIn(field: string, text: string, lineBreaks = false): string {
  const fault = textFault(text, { lineBreaks })
  return fault
    ? `Your ${field} has an invisible or control character in it (${fault.what}, ${fault.codePoint}) at character ${fault.position}. Type it again without it.`
    : ''
}
const HIDDEN = (field: string) =>
  `Your ${field} has an invisible or control character in it (such as a direction mark or a zero-width space). Type it again without it.`
