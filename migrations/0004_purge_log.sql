-- Every purge of the edge cache: who (the token's name), what, when, how many.
CREATE TABLE purge_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,                    -- ISO 8601, UTC
  token_name TEXT NOT NULL,
  urls TEXT NOT NULL,                  -- JSON array of normalised paths
  tags TEXT NOT NULL,                  -- JSON array of tags
  purged INTEGER NOT NULL              -- urls + tags
);
CREATE INDEX purge_log_at ON purge_log (at DESC);
