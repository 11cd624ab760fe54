// The guest message form (docs/pages.md, "Guest messages"): its fields as typed, and what is
// wrong with them, worded for the person who typed them.

export const MESSAGE_FIELDS = ['name', 'email', 'message'] as const
export type MessageField = (typeof MESSAGE_FIELDS)[number]

/** What the visitor typed, as typed: given back with the form when something is wrong. */
export type MessageValues = Record<MessageField, string>
export type MessageErrors = Partial<Record<MessageField, string>>

export const MAX_NAME = 80
export const MAX_EMAIL = 254
export const MIN_MESSAGE = 10
export const MAX_MESSAGE = 2000

export const EMPTY_MESSAGE: MessageValues = { name: '', email: '', message: '' }

// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f]/g
// eslint-disable-next-line no-control-regex -- a message keeps its line breaks and tabs
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g
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
  const name = values.name.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim()
  const email = values.email.trim()
  const message = values.message.replace(/\r\n?/g, '\n').replace(CONTROL_IN_TEXT, '').trim()
  const errors: MessageErrors = {}
  if (!name) errors.name = 'Enter your name.'
  else if (name.length > MAX_NAME) errors.name = `Keep your name to ${MAX_NAME} characters.`
  if (!email) errors.email = `Enter your email address, so ${recipient} can reply.`
  else if (email.length > MAX_EMAIL || !EMAIL.test(email))
    errors.email = 'Enter an email address like name@example.com.'
  if (message.length < MIN_MESSAGE)
    errors.message = `Write a message of at least ${MIN_MESSAGE} characters.`
  else if (message.length > MAX_MESSAGE)
    errors.message = `Keep your message to ${MAX_MESSAGE.toLocaleString('en-US')} characters (it has ${message.length.toLocaleString('en-US')}).`
  return Object.keys(errors).length
    ? { ok: false, errors }
    : { ok: true, message: { name, email, message } }
}
