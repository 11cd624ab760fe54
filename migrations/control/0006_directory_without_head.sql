-- The directory keeps where an entity is (shard, city, slug, status, version), not what its
-- <head> shows: a profile and a job render from their shard, whose row decides their status, so
-- nothing read the copied fields, which were most of a directory row's bytes and made every
-- review rewrite its provider's row (docs/scale.md, "Sizes, measured").
ALTER TABLE provider_directory DROP COLUMN head;
ALTER TABLE job_directory DROP COLUMN head;
