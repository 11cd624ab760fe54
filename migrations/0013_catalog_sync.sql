-- Catalog sync (docs/sync.md). The version each entity was last changed at, removals included
-- (a tombstone: `removed` 1), keyed as src/sync/messages.ts `entityKey` names it
-- (`provider:123`, `listing:123:babysitters`): a change whose version is not newer than the one
-- here changes nothing, so replays and messages out of order end on the same rows.
CREATE TABLE sync_versions (
  key TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  removed INTEGER NOT NULL             -- 0 | 1
) WITHOUT ROWID;

-- What the changes of one D1 batch touched, for the same batch to re-aggregate and purge, then
-- empty: `listing` service × city, `jobs` job service × city, `keyword` activity keyword (city 0).
-- Empty between batches: a batch either runs whole or not at all.
CREATE TABLE sync_touched (
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  PRIMARY KEY (kind, value, city_id)
) WITHOUT ROWID;

-- Messages the queue gave up on (the dead-letter queue's consumer writes them): the message as
-- sent, why it failed, for `npm run sync -- dead` to list and `replay` to send again.
CREATE TABLE sync_dead (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,                 -- milliseconds since the epoch
  message TEXT NOT NULL,               -- JSON
  reason TEXT NOT NULL,
  replayed_at INTEGER                  -- NULL until sent back
);
CREATE INDEX sync_dead_open ON sync_dead (replayed_at, id);
