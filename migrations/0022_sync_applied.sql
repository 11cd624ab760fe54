-- The catalog changes the queue consumer applied (src/sync/applied-log.ts), counted per minute
-- and kind: what the ops console's health page shows (the last hour by kind, the newest change's
-- age). At most a row per kind a minute whatever the rate; the cron keeps a day of them.
CREATE TABLE sync_applied (
  minute INTEGER NOT NULL,             -- milliseconds since the epoch / 60,000
  kind TEXT NOT NULL,
  changes INTEGER NOT NULL,
  last_at INTEGER NOT NULL,            -- milliseconds since the epoch of the minute's last batch
  PRIMARY KEY (minute, kind)
) WITHOUT ROWID;
