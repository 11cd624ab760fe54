-- Messages visitors send a provider from the form on the profile (flag embeddedGuestMessaging).
-- Private: no page, data response or sitemap reads this table. The counts by device and by
-- provider over the last hour rate-limit sending (src/data/guest-messages.ts). No foreign key to
-- providers: the seed replaces the catalog and must not be held back by messages.
CREATE TABLE guest_messages (
  id INTEGER PRIMARY KEY,
  provider_id INTEGER NOT NULL,
  device_id TEXT NOT NULL,             -- the sender's care_did
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL             -- ISO 8601, UTC
);
CREATE INDEX guest_messages_device ON guest_messages (device_id, created_at);
CREATE INDEX guest_messages_provider ON guest_messages (provider_id, created_at);
