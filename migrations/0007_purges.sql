-- The edge cache's purge generations (src/cache/generations.ts): one row per tag purged, only
-- ever appended. Isolates read the rows after the newest `seq` they have seen, so the sequence
-- must never go back: AUTOINCREMENT, so deleting the newest rows cannot hand out their numbers
-- again. The cron deletes rows older than the longest any page is kept (plus a day).
CREATE TABLE purges (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,                 -- the purge's time, milliseconds since the epoch
  tag TEXT NOT NULL
);
CREATE INDEX purges_at ON purges (at);
