import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TURNSTILE_TEST } from '../../scripts/turnstile-stand-in'
import {
  MESSAGES_PER_NETWORK_PROVIDER_DAY,
  MESSAGES_PER_VISITOR_HOUR,
} from '../../src/data/guest-messages'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, cardLinks, ORIGIN, textOf } from '../support/fetch-page'

// Turnstile on the guest message form, through the real worker and the stand-in of siteverify
// on 127.0.0.1 (scripts/turnstile-stand-in.ts) with Turnstile's documented test keys.

let isolate: Isolate = anIsolate()
let profile = ''
let lastAddress = 0
let address = ''

beforeEach(async () => {
  await env.FLAGS.put('flags', '{"flags":{"embeddedGuestMessaging":{"state":"ENABLED"}}}')
  isolate = anIsolate()
  ;[profile = ''] = cardLinks((await isolate.page('/nannies/atlanta-ga')).html)
  address = `203.0.113.${200 + ++lastAddress}`
})
afterEach(async () => {
  await env.FLAGS.delete('flags')
  await env.CONTROL.prepare('DELETE FROM guest_messages').run()
})

const visitor = () => `care_did=${crypto.randomUUID()}`

function post(fields: Record<string, string>, cookie = visitor(), bindings: Partial<Env> = {}) {
  return isolate.settled(
    `${profile}/message`,
    {
      method: 'POST',
      headers: {
        origin: ORIGIN,
        cookie,
        'cf-connecting-ip': address,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    },
    bindings,
  )
}

const MESSAGE = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  message: 'Are you free on Saturday evenings in March? Unique-marker-4412.',
}
const WITH_TOKEN = { ...MESSAGE, 'cf-turnstile-response': TURNSTILE_TEST.token }
const count = async () =>
  (await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM guest_messages').first<{ n: number }>())?.n

describe('Turnstile on the message form', () => {
  it('shows the widget on the form, and the policy lets its script and frame in', async () => {
    const { res, html } = await isolate.page(profile)
    expect(html).toContain(`data-sitekey="${TURNSTILE_TEST.siteKeyPasses}"`)
    expect(html).toContain('src="https://challenges.cloudflare.com/turnstile/v0/api.js"')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/)
    expect(csp).toMatch(/frame-src https:\/\/challenges\.cloudflare\.com/)
  })

  it('counts a post with a valid token per visitor only: a carrier’s shared address is no spammer', async () => {
    // A flood without tokens uses up the address's per-network limits…
    for (let i = 0; i < 8; i++) await post(MESSAGE)
    expect((await post(MESSAGE)).res.status).toBe(429)
    expect(await count()).toBe(MESSAGES_PER_NETWORK_PROVIDER_DAY)
    // …and real visitors behind the same address, each passed by Turnstile, still send.
    for (let i = 0; i < 6; i++) expect((await post(WITH_TOKEN)).res.status).toBe(303)
    expect(await count()).toBe(MESSAGES_PER_NETWORK_PROVIDER_DAY + 6)
  })

  it('still limits one visitor with valid tokens to their hourly messages', async () => {
    const me = visitor()
    const statuses: number[] = []
    for (let i = 0; i <= MESSAGES_PER_VISITOR_HOUR; i++)
      statuses.push((await post(WITH_TOKEN, me)).res.status)
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.filter((s) => s === 303)).toHaveLength(MESSAGES_PER_VISITOR_HOUR)
  })

  it('gives the form back with a clear message and the text kept when verification fails', async () => {
    const { res, body } = await post({ ...MESSAGE, 'cf-turnstile-response': 'made-up-token' })
    expect(res.status).toBe(422)
    expect(textOf(body)).toContain('We could not confirm that this message was sent by a person')
    expect(body).toContain('Unique-marker-4412')
    expect(await count()).toBe(0)
    const spent = await post(WITH_TOKEN, visitor(), {
      TURNSTILE_SECRET_KEY: TURNSTILE_TEST.secretSpent,
    })
    expect(spent.res.status).toBe(422)
  })

  it('counts a post per network when siteverify does not answer', async () => {
    const down = { TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' }
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await post(WITH_TOKEN, visitor(), down)).res.status)
    expect(statuses.slice(0, MESSAGES_PER_NETWORK_PROVIDER_DAY)).toEqual([303, 303, 303])
    expect(statuses.at(-1)).toBe(429)
  })
})
