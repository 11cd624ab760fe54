import { StorageError } from './db'

// Guest messages (docs/pages.md, "Guest messages"): written here, read by no page.

/** Messages one visitor (care_did) may send in an hour, to anyone. */
export const MESSAGES_PER_VISITOR_HOUR = 5
/** Messages one provider may receive in an hour, from everyone: a floor under made-up device ids. */
export const MESSAGES_PER_PROVIDER_HOUR = 50

const HOUR_MS = 60 * 60 * 1000

export interface GuestMessage {
  providerId: number
  deviceId: string
  name: string
  email: string
  body: string
}

/**
 * Stores `message` unless its sender or its provider has reached the hourly limit; false when
 * one has. The counts and the insert are one statement, so two messages sent at once cannot
 * both slip under a limit.
 */
export async function saveGuestMessage(
  db: D1Database,
  message: GuestMessage,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - HOUR_MS).toISOString()
  try {
    const result = await db
      .prepare(
        `INSERT INTO guest_messages (provider_id, device_id, name, email, body, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6
         WHERE (SELECT COUNT(*) FROM guest_messages WHERE device_id = ?2 AND created_at > ?7) < ?8
           AND (SELECT COUNT(*) FROM guest_messages WHERE provider_id = ?1 AND created_at > ?7) < ?9`,
      )
      .bind(
        message.providerId,
        message.deviceId,
        message.name,
        message.email,
        message.body,
        now.toISOString(),
        since,
        MESSAGES_PER_VISITOR_HOUR,
        MESSAGES_PER_PROVIDER_HOUR,
      )
      .run()
    return result.meta.changes > 0
  } catch (error) {
    // D1 failing is the site's trouble, not the visitor's: a 503, as for a failed read.
    throw new StorageError('D1 write of a guest message failed', { cause: error })
  }
}
