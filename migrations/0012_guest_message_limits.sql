-- What bounds the guest messages (src/data/guest-messages.ts, docs/hardening.md): the network a
-- message came from, so made-up visitor ids from one address count as that address, and the
-- indexes the limits count through. The cron deletes messages past their retention.
ALTER TABLE guest_messages ADD COLUMN sender TEXT NOT NULL DEFAULT '';  -- IPv4 address or IPv6 /64
CREATE INDEX guest_messages_sender ON guest_messages (sender, created_at);
CREATE INDEX guest_messages_created ON guest_messages (created_at);
