import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { getCookie } from 'hono/cookie'
import type { Refusal } from '../data/guest-messages'
import { MESSAGES_PER_VISITOR_HOUR, saveGuestMessage, verifiedSender } from '../data/guest-messages'
// The purge endpoint's key of a caller's network: an IPv4 address or an IPv6 /64.
import { failureKey as networkKey } from '../cache/purge'
import type { Provider } from '../data/providers'
import { findProvider } from '../data/providers'
import type { AppEnv } from '../env'
import type { MessageErrors, MessageValues } from '../queries/message-form'
import {
  checkMessage,
  MAX_MESSAGE,
  MESSAGE_FORM_BYTES,
  messageValues,
} from '../queries/message-form'
import { fromOwnPages, readForm } from '../request/form-post'
import { TURNSTILE_FIELD, verifyTurnstile } from '../request/turnstile'
import { pageHead } from '../seo/head'
import { decideIndexing } from '../seo/indexability'
import { MessagePage, MessageSentPage } from '../views/message/message-pages'
import { displayName } from '../views/parts/format'
import { entityId, providerMessagePath, providerMessageSentPath, providerPath } from '../urls/paths'
import { renderDocument } from './render-document'

// A message is about one visitor: never stored by a shared cache, never indexed.
const PRIVATE = { 'cache-control': 'private, no-store' }
const PRIVATE_PAGE = decideIndexing({ private: true })
const MINUTE_SECONDS = 60
const HOUR_SECONDS = 3600
const DAY_SECONDS = 86_400

/** The provider a message path names, with the flag on; anything else is a 404. */
async function recipientOf(c: Context<AppEnv>): Promise<Provider> {
  if (!c.get('flags').on('embeddedGuestMessaging')) throw new HTTPException(404)
  const id = entityId(c.req.param('slug') ?? '')
  const placed = id === null ? null : await c.get('shards').ofProvider(id)
  // By control's directory, then the provider's shard (src/request/page-reads.ts).
  const provider =
    id === null || !placed || placed === 'removed' ? null : await findProvider(placed.db, id)
  if (!provider) throw new HTTPException(404)
  return provider
}

/** How the form addresses a provider: a centre by its name, a caregiver by first name. */
function recipientName(provider: Provider): string {
  return provider.businessType === 'SMB'
    ? (provider.businessName ?? displayName(provider))
    : provider.firstName
}

/**
 * POST `/p/{name-slug}-{id}/message` (flag embeddedGuestMessaging): a visitor's message to a
 * provider. Only from this site's pages (Origin); checked field by field, and given back with
 * what was typed and what is wrong (422); stored in D1 with the provider id, the visitor's
 * `care_did` and network, within the limits of docs/hardening.md (each refusal the form again,
 * saying which limit and only what is true of this visitor); then 303 to the confirmation.
 */
export async function sendGuestMessage(c: Context<AppEnv>): Promise<Response> {
  if (!c.get('flags').on('embeddedGuestMessaging')) throw new HTTPException(404)
  // Before any read: a post from another site costs nothing.
  if (!fromOwnPages(c)) throw new HTTPException(403)
  const provider = await recipientOf(c)
  const form = await readForm(c.req.raw, MESSAGE_FORM_BYTES)
  const values = messageValues(form.fields)
  // More than the form can hold: only a client past its limits sends this, but what fitted of
  // its text comes back.
  if (!form.complete) {
    return formAgain(c, provider, values, {
      problem: `Your message is longer than this form takes (${MAX_MESSAGE.toLocaleString('en-US')} characters), so it was not sent. What fitted is below: shorten it and send it again.`,
      status: 413,
    })
  }
  const recipient = recipientName(provider)
  const checked = checkMessage(values, recipient)
  if (!checked.ok) return formAgain(c, provider, values, { errors: checked.errors, status: 422 })
  // The care_did the visitor's browser keeps; one made up for this request would be no one's.
  // This response sets one, so sending again works.
  if (getCookie(c, 'care_did') !== c.get('deviceId')) {
    return formAgain(c, provider, values, {
      problem:
        'Your browser did not send our cookie, which we need to send messages. Allow cookies for this site and send again.',
      status: 422,
    })
  }
  const sender = await senderOf(c, form.fields.get(TURNSTILE_FIELD) ?? '')
  if ('status' in sender) return formAgain(c, provider, values, sender)
  const refused = await storeMessage(c, provider, sender, checked.message)
  if (refused) return formAgain(c, provider, values, refused)
  return c.redirect(providerMessageSentPath(provider), 303)
}

/** Who a post is counted as (docs/hardening.md, "Turnstile"). */
interface Sender {
  /** As stored: its network, or `verifiedSender` of it. */
  sender: string
  perNetwork: boolean
}

/**
 * Who sent a post: a visitor Turnstile passed is counted as one person, per visitor only; a post
 * without a token (no JavaScript, a script, siteverify not answering) as its network, under the
 * MESSAGE_SENDERS rate limit and the per-network limits; a token siteverify refused is the form
 * again, its text kept.
 */
async function senderOf(c: Context<AppEnv>, token: string): Promise<Sender | FormAgain> {
  const address = c.req.header('cf-connecting-ip')
  const network = networkKey(address)
  const verification = await verifyTurnstile(token, address, {
    secret: c.env.TURNSTILE_SECRET_KEY,
    verifyUrl: c.env.TURNSTILE_VERIFY_URL,
  })
  if (verification === 'passed') return { sender: verifiedSender(network), perNetwork: false }
  if (verification === 'failed') return { problem: NOT_VERIFIED, status: 422 }
  if (verification === 'unavailable')
    c.get('reporter').problem('guest message: Turnstile siteverify unavailable', {})
  if (await overSendingLimit(c, network)) {
    return {
      problem: `Many messages have come from your network in the last minute. Yours was not sent: wait a minute and send it again.`,
      status: 429,
      headers: { 'retry-after': String(MINUTE_SECONDS) },
    }
  }
  return { sender: network, perNetwork: true }
}

const NOT_VERIFIED =
  'We could not confirm that this message was sent by a person, so it was not sent. Everything you typed is below: complete the check above the button and send it again.'

/**
 * Stores a checked message; what the form then tells the visitor when it was not stored (a limit
 * reached, or D1 unable to take it), or null when it was.
 */
async function storeMessage(
  c: Context<AppEnv>,
  provider: Provider,
  { sender, perNetwork }: Sender,
  message: MessageValues,
): Promise<FormAgain | null> {
  let outcome: Awaited<ReturnType<typeof saveGuestMessage>>
  try {
    outcome = await saveGuestMessage(
      c.env.CONTROL,
      {
        providerId: provider.id,
        deviceId: c.get('deviceId'),
        sender,
        name: message.name,
        email: message.email,
        body: message.message,
      },
      new Date(),
      { perNetwork },
    )
  } catch (error) {
    c.get('reporter').problem('guest message: not stored', { error: String(error) })
    return REFUSALS.full
  }
  if (outcome.sent) return null
  const refusal = REFUSALS[outcome.refused]
  return { ...refusal, problem: refusal.problem.replace('{recipient}', recipientName(provider)) }
}

const NOT_SENT =
  'Your message was not sent: we could not store it just now. Everything you typed is below: please send it again.'

/**
 * What each limit tells the visitor it refused: only what is true of them (docs/hardening.md).
 * Spam from other networks never gets a visitor a message that blames them.
 */
const REFUSALS: Record<
  Refusal,
  { problem: string; status: number; headers: Record<string, string> }
> = {
  visitor: {
    problem: `You have sent ${MESSAGES_PER_VISITOR_HOUR} messages in the last hour. Yours was not sent: please try again later.`,
    status: 429,
    headers: { 'retry-after': String(HOUR_SECONDS) },
  },
  network: {
    problem:
      'Many messages have come from your network (your internet address) recently. Yours was not sent: please try again later.',
    status: 429,
    headers: { 'retry-after': String(HOUR_SECONDS) },
  },
  provider: {
    problem: `{recipient} has received many messages today and takes no more until tomorrow. Yours was not sent: please try again tomorrow.`,
    status: 429,
    headers: { 'retry-after': String(DAY_SECONDS) },
  },
  full: {
    problem: NOT_SENT,
    status: 503,
    headers: { 'retry-after': String(MINUTE_SECONDS) },
  },
}

/**
 * Counts a post in the MESSAGE_SENDERS rate limit (per IPv4 address or IPv6 /64) and tells
 * whether its network is over it. A limiter that cannot answer lets the post through: the limits
 * counted in D1 still apply.
 */
async function overSendingLimit(c: Context<AppEnv>, network: string): Promise<boolean> {
  try {
    return !(await c.env.MESSAGE_SENDERS.limit({ key: network })).success
  } catch (error) {
    c.get('reporter').problem('guest message: rate limit unavailable', { error: String(error) })
    return false
  }
}

/** Why the form is shown again: the fields' errors or a problem, its status and headers. */
interface FormAgain {
  errors?: MessageErrors
  problem?: string
  status: number
  headers?: Record<string, string>
}

/** The form again, as typed, with what is wrong. */
function formAgain(
  c: Context<AppEnv>,
  provider: Provider,
  values: MessageValues,
  options: FormAgain,
): Promise<Response> {
  const recipient = recipientName(provider)
  return renderDocument(
    c,
    <MessagePage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: `Message ${recipient}`,
        description: `Send ${recipient} a message.`,
        path: providerMessagePath(provider),
        decision: PRIVATE_PAGE,
        crumbs: null,
      })}
      profile={providerPath(provider)}
      action={providerMessagePath(provider)}
      recipient={recipient}
      values={values}
      errors={options.errors ?? {}}
      problem={options.problem ?? null}
    />,
    {
      decision: PRIVATE_PAGE,
      status: options.status,
      headers: { ...PRIVATE, ...options.headers },
    },
  )
}

/** GET `/p/{name-slug}-{id}/message/sent`: the confirmation, which shows nothing of the message. */
export async function guestMessageSent(c: Context<AppEnv>): Promise<Response> {
  const provider = await recipientOf(c)
  const recipient = recipientName(provider)
  return renderDocument(
    c,
    <MessageSentPage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: `Message sent to ${recipient}`,
        description: `Your message to ${recipient} was sent.`,
        path: providerMessageSentPath(provider),
        decision: PRIVATE_PAGE,
        crumbs: null,
      })}
      recipient={recipient}
      profile={providerPath(provider)}
    />,
    { decision: PRIVATE_PAGE, headers: PRIVATE },
  )
}
