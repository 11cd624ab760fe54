-- A job being moved between shards (src/sync/move.ts, `moveJob`) keeps, until the shard it
-- leaves no longer holds its row, which shard that is: a move cut short after the directory's
-- switch is then finished by the next batch naming the job, or by the cron.
ALTER TABLE job_directory ADD COLUMN moving_from INTEGER;

CREATE INDEX job_directory_moving ON job_directory (moving_from)
  WHERE moving_from IS NOT NULL;
