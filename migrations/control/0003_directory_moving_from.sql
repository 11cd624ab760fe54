-- A provider being moved between shards (src/sync/move.ts) keeps, until the shard it leaves no
-- longer holds its rows, which shard that is: a move cut short after the directory's switch is
-- then finished by the next batch naming the provider, or by the cron.
ALTER TABLE provider_directory ADD COLUMN moving_from INTEGER;

CREATE INDEX provider_directory_moving ON provider_directory (moving_from)
  WHERE moving_from IS NOT NULL;
