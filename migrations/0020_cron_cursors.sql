-- Where the cron's incremental steps stand (src/cron/refresh-derived.ts, docs/data.md): the
-- moment up to which expired jobs and ended activities were taken out of the stats, and the last
-- city whose stats were checked against a recompute (the check rotates over the cities).
CREATE TABLE cron_cursors (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;

-- The jobs whose closing moment passed since the cron's last run: a key range.
CREATE INDEX jobs_valid_through ON jobs (valid_through);
