import { StorageError, withDeadline } from './db'

// Guest messages (docs/pages.md, "Guest messages"): written here, read by no page. What is
// stored is bounded (docs/hardening.md, "Form posts"): by sender, by network, by provider, in
// all, and in time.

/** Messages one visitor (care_did) may send in an hour, to anyone. */
export const MESSAGES_PER_VISITOR_HOUR = 5
/**
 * Visitor ids, besides the sender's, that may have sent from one network (an IPv4 address or an
 * IPv6 /64) in the last hour: a script that makes up a new care_did for each post is one
 * network, and gets no further than a few browsers behind one address would.
 */
export const OTHER_VISITORS_PER_NETWORK_HOUR = 3
/** Messages one network may send one provider in a day: no one network can use up its day. */
export const MESSAGES_PER_NETWORK_PROVIDER_DAY = 3
/** Messages one provider may receive in a day, from everyone: a cap on what one provider stores. */
export const MESSAGES_PER_PROVIDER_DAY = 50
/** Messages kept; the cron deletes older ones (`forgetOldMessages`). */
export const MESSAGE_KEEP_DAYS = 30
/**
 * Messages stored in all: past it, every message is refused, so the message table can never
 * grow until D1 is full and refuses the writes that matter (purges, the catalog). At most about
 * 8.5 KB a row (the form's limits in UTF-8), this is under 1 GB.
 */
export const MAX_STORED_MESSAGES = 100_000
/**
 * A write slower than this is D1 in trouble: the visitor gets the form back to send again
 * rather than wait. Longer than READ_DEADLINE_MS: a write goes to the primary, which may be
 * far away.
 */
export const WRITE_DEADLINE_MS = 1_000

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

export interface GuestMessage {
  providerId: number
  deviceId: string
  /** The network the message came from (`networkKey`). */
  sender: string
  name: string
  email: string
  body: string
}

/** Which limit refused a message: each has its own answer to the visitor. */
export type Refusal = 'visitor' | 'network' | 'provider' | 'full'

// Parameters: ?1 provider, ?2 care_did, ?3 sender, ?4 an hour ago, ?5 a day ago. The row count
// is read from the ends of the rowid (two rows, not the table): never less than the count, as
// the cron deletes the oldest.
const LIMITS: readonly { refusal: Refusal; count: string; max: number }[] = [
  {
    refusal: 'visitor',
    count: 'SELECT COUNT(*) FROM guest_messages WHERE device_id = ?2 AND created_at > ?4',
    max: MESSAGES_PER_VISITOR_HOUR,
  },
  {
    refusal: 'network',
    count: `SELECT COUNT(DISTINCT device_id) FROM guest_messages
            WHERE sender = ?3 AND created_at > ?4 AND device_id <> ?2`,
    max: OTHER_VISITORS_PER_NETWORK_HOUR,
  },
  {
    refusal: 'network',
    count: `SELECT COUNT(*) FROM guest_messages
            WHERE provider_id = ?1 AND created_at > ?5 AND sender = ?3`,
    max: MESSAGES_PER_NETWORK_PROVIDER_DAY,
  },
  {
    refusal: 'provider',
    count: 'SELECT COUNT(*) FROM guest_messages WHERE provider_id = ?1 AND created_at > ?5',
    max: MESSAGES_PER_PROVIDER_DAY,
  },
  {
    refusal: 'full',
    count: 'SELECT COALESCE(MAX(id) - MIN(id) + 1, 0) FROM guest_messages',
    max: MAX_STORED_MESSAGES,
  },
]

/** The statements of a set of limits: the insert under them, and their counts. */
function statementsOf(limits: typeof LIMITS) {
  const counts = `SELECT ${limits.map((l, i) => `(${l.count}) AS n${i}`).join(', ')}`
  const under = limits.map((l, i) => `n${i} < ${l.max}`).join(' AND ')
  const insert = `WITH counts AS (${counts})
    INSERT INTO guest_messages (provider_id, device_id, sender, name, email, body, created_at)
    SELECT ?1, ?2, ?3, ?6, ?7, ?8, ?9 FROM counts WHERE ${under}`
  return { limits, counts, insert }
}
const EVERY_LIMIT = statementsOf(LIMITS)
/** A post Turnstile passed is one person's: counted per visitor, never per network. */
const NOT_PER_NETWORK = statementsOf(LIMITS.filter((l) => l.refusal !== 'network'))

/**
 * How a post Turnstile passed is stored as sent: from its network under another name, so the
 * per-network counts of posts without a token leave it out (a carrier's shared address full of
 * real visitors does not use up its few visitors' worth for those without JavaScript).
 */
export const verifiedSender = (network: string) => `turnstile ${network}`

/**
 * Stores `message` unless a limit refuses it, and says which. The counts and the insert are one
 * statement, so two messages sent at once cannot both slip under a limit; only a refused message
 * reads the counts again, to tell its sender why. D1 failing, or slower than WRITE_DEADLINE_MS,
 * is a StorageError.
 */
export async function saveGuestMessage(
  db: D1Database,
  message: GuestMessage,
  now: Date,
  { perNetwork = true }: { perNetwork?: boolean } = {},
): Promise<{ sent: true } | { sent: false; refused: Refusal }> {
  const { limits, counts: COUNTS, insert: INSERT } = perNetwork ? EVERY_LIMIT : NOT_PER_NETWORK
  const keys = [
    message.providerId,
    message.deviceId,
    message.sender,
    new Date(now.getTime() - HOUR_MS).toISOString(),
    new Date(now.getTime() - DAY_MS).toISOString(),
  ]
  try {
    const { meta } = await withDeadline(
      db
        .prepare(INSERT)
        .bind(...keys, message.name, message.email, message.body, now.toISOString())
        .run(),
      WRITE_DEADLINE_MS,
      'D1 write of a guest message',
    )
    if (meta.changes > 0) return { sent: true }
    const counts = await withDeadline(
      db
        .prepare(COUNTS)
        .bind(...keys)
        .raw<number[]>()
        .then((rows) => rows[0] ?? []),
      WRITE_DEADLINE_MS,
      'D1 read of the guest message limits',
    )
    const over = limits.find((l, i) => (counts[i] ?? 0) >= l.max)
    return { sent: false, refused: over?.refusal ?? 'full' }
  } catch (error) {
    throw new StorageError('D1 write of a guest message failed', { cause: error })
  }
}

/** Deletes the messages older than MESSAGE_KEEP_DAYS (the cron). */
export async function forgetOldMessages(db: D1Database, now: number): Promise<number> {
  const { meta } = await db
    .prepare('DELETE FROM guest_messages WHERE created_at < ?')
    .bind(new Date(now - MESSAGE_KEEP_DAYS * DAY_MS).toISOString())
    .run()
  return meta.changes
}
