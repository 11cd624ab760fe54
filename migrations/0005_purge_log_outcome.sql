-- What each purge request came to: purged, refused (and why) or failed (and why). Refusals of
-- callers without a valid token are logged too, as token_name 'unknown' (no address is kept).
ALTER TABLE purge_log ADD COLUMN outcome TEXT NOT NULL DEFAULT 'purged';
