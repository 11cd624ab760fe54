-- Refusals of callers without a valid token are counted, not logged one by one: one row per
-- outcome per minute (`refused_minute`, e.g. 2026-05-01T12:34), `refusals` the count. Other rows
-- keep refused_minute NULL (never equal to one another in a unique index) and refusals 1.
ALTER TABLE purge_log ADD COLUMN refusals INTEGER NOT NULL DEFAULT 1;
ALTER TABLE purge_log ADD COLUMN refused_minute TEXT;
CREATE UNIQUE INDEX purge_log_refused_minute ON purge_log (refused_minute, outcome);
