-- The cron's steps (src/cron/refresh-derived.ts), one row each: when each last succeeded, and
-- its last failure with the error, for an operator to see (docs/operations.md).
CREATE TABLE cron_steps (
  step TEXT PRIMARY KEY,
  last_success TEXT,
  last_failure TEXT,
  last_error TEXT
);
