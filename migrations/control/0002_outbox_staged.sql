-- The shards' outbox rows control is applying (src/sync/outbox-apply.ts): staged within the
-- batch that applies them, those past each shard's outbox_applied only, and emptied at its end.
-- Empty between batches; no single-database counterpart (one database has no outbox).
CREATE TABLE outbox_staged (
  shard INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,                  -- JSON
  PRIMARY KEY (shard, seq)
) WITHOUT ROWID;
