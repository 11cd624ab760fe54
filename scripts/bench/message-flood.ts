// `npm run load`'s message flood (scripts/load.ts): while the realistic mix runs, a script posts
// the guest message form as fast as it is answered, each post with a care_did it made up and
// from one of a few network addresses (`cf-connecting-ip`, which the local runtime passes on as
// the client's address, as Cloudflare's edge sets it); real visitors, each with the care_did the
// site issued them and an address of their own, send one message each to the same providers,
// and an operator records a purge every few seconds. Reported: what the flood got stored, the
// table's size against the bound the limits allow, the real visitors' answers, the purges.
import type { Miniflare } from 'miniflare'
import {
  MESSAGES_PER_NETWORK_PROVIDER_DAY,
  MESSAGES_PER_VISITOR_HOUR,
  OTHER_VISITORS_PER_NETWORK_HOUR,
} from '../../src/data/guest-messages'
import { providerMessagePath } from '../../src/urls/paths'
import { BENCH_PURGE_TOKEN, PHONE } from './harness'

/** The flag store with the message form on for everyone. */
export const MESSAGING_ON = { flags: { embeddedGuestMessaging: { state: 'ENABLED' } } }

const ORIGIN = 'https://www.care.example'
const SPAM_NETWORKS = Array.from({ length: 8 }, (_, i) => `203.0.113.${i + 1}`)
const LONG = 'x'.repeat(2_000)

export interface FloodReport {
  spamPosts: number
  spamStored: number
  spamStatuses: Record<string, number>
  rowsBefore: number
  rowsAfter: number
  bytesAfter: number
  /** The most rows the limits let the spam networks store in an hour. */
  bound: number
  visitors: number
  visitorsSent: number
  visitorStatuses: Record<string, number>
  purges: number
  purgesRecorded: number
}

interface Target {
  id: number
  nameSlug: string
}

/** The flood, the visitors and the purges, for `seconds` on `base`. */
export async function flood(base: string, mf: Miniflare, seconds: number): Promise<FloodReport> {
  // The providers written to are Atlanta's, on the first shard; messages and purges are control's.
  const shard = (await mf.getD1Database('SHARD_00')) as unknown as D1Database
  const db = (await mf.getD1Database('CONTROL')) as unknown as D1Database
  const { results } = await shard
    .prepare('SELECT id, name_slug AS nameSlug FROM providers ORDER BY id LIMIT 4')
    .all<Target>()
  const targets = results
  const count = async (sql: string) => (await db.prepare(sql).first<{ n: number }>())?.n ?? 0
  const rowsBefore = await count('SELECT COUNT(*) AS n FROM guest_messages')
  const purgesBefore = await count('SELECT COUNT(*) AS n FROM purges')
  const until = Date.now() + seconds * 1000
  const report = {
    spamPosts: 0,
    spamStatuses: {} as Record<string, number>,
    visitors: 0,
    visitorsSent: 0,
    visitorStatuses: {} as Record<string, number>,
    purges: 0,
  }
  const tally = (into: Record<string, number>, status: number) =>
    (into[status] = (into[status] ?? 0) + 1)
  const post = (target: Target, deviceId: string, network: string, name: string) =>
    fetch(base + providerMessagePath(target), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `care_did=${deviceId}`,
        'cf-connecting-ip': network,
        'user-agent': PHONE,
      },
      body: new URLSearchParams({
        name,
        email: 'someone@example.com',
        message: `Hello, are you available next week? ${LONG}`.slice(0, 2_000),
      }),
    })
  const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T

  // The script: four posters at once, each post a made-up id from one of the spam networks.
  const spam = async (lane: number) => {
    for (let i = lane; Date.now() < until; i += 4) {
      const res = await post(pick(targets, i), crypto.randomUUID(), pick(SPAM_NETWORKS, i), 'Spam')
      await res.arrayBuffer()
      report.spamPosts++
      tally(report.spamStatuses, res.status)
    }
  }
  // Real visitors: a profile first (the site issues their care_did), then one message.
  const visitors = async () => {
    for (let i = 0; Date.now() < until; i++) {
      const target = pick(targets, i)
      const network = `198.51.100.${(i % 250) + 1}`
      const page = await fetch(`${base}/p/${target.nameSlug}-${target.id}`, {
        headers: { 'user-agent': PHONE, 'cf-connecting-ip': network },
      })
      await page.arrayBuffer()
      const deviceId = /care_did=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] ?? ''
      const res = await post(target, deviceId, network, 'Real Visitor')
      await res.arrayBuffer()
      report.visitors++
      tally(report.visitorStatuses, res.status)
      if (res.status === 303) report.visitorsSent++
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }
  // The operator: a purge of one flooded provider every 2 s.
  const purges = async () => {
    for (let i = 0; Date.now() < until; i++) {
      const res = await fetch(`${base}/__ops/purge`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${BENCH_PURGE_TOKEN}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ tags: [`provider:${pick(targets, i).id}`] }),
      })
      await res.arrayBuffer()
      if (res.status === 200) report.purges++
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  }
  await Promise.all([spam(0), spam(1), spam(2), spam(3), visitors(), purges()])

  const rowsAfter = await count('SELECT COUNT(*) AS n FROM guest_messages')
  const spamStored = await count("SELECT COUNT(*) AS n FROM guest_messages WHERE name = 'Spam'")
  const bytesAfter = await count(
    'SELECT COALESCE(SUM(length(CAST(name || email || body AS BLOB))), 0) AS n FROM guest_messages',
  )
  // Per network: in an hour, the sender's own id and OTHER_VISITORS_PER_NETWORK_HOUR others, each
  // at most MESSAGES_PER_VISITOR_HOUR; in a day, MESSAGES_PER_NETWORK_PROVIDER_DAY per provider.
  const perNetwork = Math.min(
    (1 + OTHER_VISITORS_PER_NETWORK_HOUR) * MESSAGES_PER_VISITOR_HOUR,
    MESSAGES_PER_NETWORK_PROVIDER_DAY * targets.length,
  )
  const bound = SPAM_NETWORKS.length * perNetwork
  return {
    ...report,
    spamStored,
    rowsBefore,
    rowsAfter,
    bytesAfter,
    bound,
    purgesRecorded: (await count('SELECT COUNT(*) AS n FROM purges')) - purgesBefore,
  }
}
