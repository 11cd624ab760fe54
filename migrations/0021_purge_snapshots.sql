-- Snapshots of the purge sketch (src/cache/purge-snapshot.ts): an isolate's knowledge of every
-- purge up to `seq`, which a cold isolate reads in the same round trip as the purge rows after
-- it. One is kept at a time; a newer one replaces it in the batch that completes it. A row is
-- first written as a claim (complete = 0), so one isolate at a time writes the cells.
CREATE TABLE purge_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  seq INTEGER NOT NULL,                -- every purge row up to this seq is in the snapshot
  made_at INTEGER NOT NULL,            -- milliseconds since the epoch
  unit_now INTEGER NOT NULL,           -- the minute the cells' ages count back from
  unit_max INTEGER NOT NULL,           -- the newest minute of any cell
  cells INTEGER NOT NULL,              -- the sketch's size: another size is not loaded
  complete INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX purge_snapshots_made_at ON purge_snapshots (made_at);

-- The cells, one byte each, base64 in parts under D1's 2 MB row limit.
CREATE TABLE purge_snapshot_parts (
  snapshot INTEGER NOT NULL,
  part INTEGER NOT NULL,
  cells TEXT NOT NULL,
  PRIMARY KEY (snapshot, part)
);
