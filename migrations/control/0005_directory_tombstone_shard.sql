-- The shard a removed provider was on: a later message about it (a listing withdrawn after the
-- removal, the removal delivered again) goes to that shard, whose versions decide it, rather than
-- waiting for a provider no shard holds. Null for a tombstone written before this column.
ALTER TABLE directory_tombstones ADD COLUMN shard INTEGER;
