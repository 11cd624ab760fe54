-- Purges of aggregate pages held back to coalesce (src/sync/purge-tags.ts, docs/sync.md): a
-- state page, a national page or the sitemaps shows thousands of entities, and a change to any of
-- them would purge it again every few seconds. A change upserts its aggregate tags here instead,
-- one row per tag whatever the number of changes; once a tag's oldest waiting change is a minute
-- old, the next sync batch or cron run moves it into `purges` and deletes the row.
CREATE TABLE pending_purges (
  tag TEXT PRIMARY KEY,
  since INTEGER NOT NULL               -- the oldest waiting change, milliseconds since the epoch
) WITHOUT ROWID;
CREATE INDEX pending_purges_since ON pending_purges (since);
