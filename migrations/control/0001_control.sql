-- The control database (docs/scale.md): what is national or keyed by id. Cities and ZIP codes,
-- the entity directory (which shard holds each provider and job), activities, every city's stats
-- copied from its shard, the state and national rollups, sitemap blocks, purges and their log,
-- the cron's and the sync's bookkeeping (the versions of what control alone holds: cities and
-- activities), guest messages. Each table as the single-database schema in migrations/ defines
-- it (a test holds the two to each other), the directory added.

CREATE TABLE cities (
  id INTEGER PRIMARY KEY,              -- GeoNames id of the place
  slug TEXT NOT NULL UNIQUE,           -- atlanta-ga
  name TEXT NOT NULL,
  state_code TEXT NOT NULL,            -- GA
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  population INTEGER NOT NULL
);

CREATE INDEX cities_lat ON cities (lat);

CREATE TABLE service_city_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of each provider's mid rate
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,
  updated_at TEXT NOT NULL, checked INTEGER NOT NULL DEFAULT 0, reviewed INTEGER NOT NULL DEFAULT 0, reviews INTEGER NOT NULL DEFAULT 0, rating_avg REAL,
  PRIMARY KEY (service, city_id)
) WITHOUT ROWID;

CREATE INDEX service_city_stats_top ON service_city_stats (service, providers DESC);

CREATE INDEX service_city_stats_state ON service_city_stats (service, state_code, providers DESC);

CREATE INDEX service_city_stats_city ON service_city_stats (city_id);

CREATE TABLE catalog_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE job_city_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  jobs INTEGER NOT NULL,
  pay_avg REAL,                        -- mean hourly mid pay of the hourly jobs, NULL without any
  updated_at TEXT NOT NULL,
  PRIMARY KEY (service, city_id)
) WITHOUT ROWID;

CREATE INDEX job_city_stats_city ON job_city_stats (city_id);

CREATE TABLE rate_experience_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,            -- 0: national
  band INTEGER NOT NULL,               -- index into EXPERIENCE_BANDS (src/catalog/cost-guides.ts)
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of the providers' mid rates
  PRIMARY KEY (service, city_id, band)
) WITHOUT ROWID;

CREATE TABLE activities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  organizer TEXT NOT NULL,
  source TEXT NOT NULL,                -- the partner that listed it (ACTIVITY_SOURCE)
  category TEXT NOT NULL,              -- category keyword: music, outdoor-and-adventure, …
  subcategory TEXT,                    -- subcategory keyword: hip-hop, 3d-printing, …; NULL for cooking, activities
  participation TEXT NOT NULL,         -- IN_PERSON | ONLINE
  ages INTEGER NOT NULL,               -- bitmask of ACTIVITY_AGE_GROUPS
  days INTEGER NOT NULL,               -- bitmask of WEEKDAYS
  start_date TEXT,                     -- YYYY-MM-DD; NULL for ongoing classes
  end_date TEXT,
  is_camp INTEGER NOT NULL,            -- 0 | 1
  price INTEGER NOT NULL,              -- whole US dollars per price_unit
  price_unit TEXT NOT NULL,            -- session | wk | mo | flat
  description TEXT NOT NULL,
  city_id INTEGER REFERENCES cities (id), -- NULL when online
  venue TEXT,
  address TEXT,
  rank_score REAL NOT NULL
);

CREATE INDEX activities_category ON activities (category, start_date, id);

CREATE INDEX activities_subcategory ON activities (subcategory, start_date, id);

CREATE TABLE activity_stats (
  keyword TEXT PRIMARY KEY,
  activities INTEGER NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE purge_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,                    -- ISO 8601, UTC
  token_name TEXT NOT NULL,
  urls TEXT NOT NULL,                  -- JSON array of normalised paths
  tags TEXT NOT NULL,                  -- JSON array of tags
  purged INTEGER NOT NULL              -- urls + tags
, outcome TEXT NOT NULL DEFAULT 'purged', refusals INTEGER NOT NULL DEFAULT 1, refused_minute TEXT);

CREATE INDEX purge_log_at ON purge_log (at DESC);

CREATE TABLE city_additions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: never reused, even after a delete
  slug TEXT NOT NULL
);

CREATE TRIGGER cities_added AFTER INSERT ON cities BEGIN
  INSERT INTO city_additions (slug) VALUES (NEW.slug);
END;

CREATE TRIGGER cities_renamed AFTER UPDATE OF slug ON cities BEGIN
  INSERT INTO city_additions (slug) VALUES (NEW.slug);
END;

CREATE TABLE purges (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,                 -- the purge's time, milliseconds since the epoch
  tag TEXT NOT NULL
);

CREATE INDEX purges_at ON purges (at);

CREATE UNIQUE INDEX purge_log_refused_minute ON purge_log (refused_minute, outcome);

CREATE TABLE guest_messages (
  id INTEGER PRIMARY KEY,
  provider_id INTEGER NOT NULL,
  device_id TEXT NOT NULL,             -- the sender's care_did
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL             -- ISO 8601, UTC
, sender TEXT NOT NULL DEFAULT '');

CREATE INDEX guest_messages_device ON guest_messages (device_id, created_at);

CREATE INDEX guest_messages_provider ON guest_messages (provider_id, created_at);

CREATE INDEX cities_population ON cities (population DESC);

CREATE TABLE cron_steps (
  step TEXT PRIMARY KEY,
  last_success TEXT,
  last_failure TEXT,
  last_error TEXT
);

CREATE INDEX guest_messages_sender ON guest_messages (sender, created_at);

CREATE INDEX guest_messages_created ON guest_messages (created_at);

CREATE TABLE sync_versions (
  key TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  removed INTEGER NOT NULL             -- 0 | 1
) WITHOUT ROWID;

CREATE TABLE sync_touched (
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  PRIMARY KEY (kind, value, city_id)
) WITHOUT ROWID;

CREATE TABLE sync_dead (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,                 -- milliseconds since the epoch
  message TEXT NOT NULL,               -- JSON
  reason TEXT NOT NULL,
  replayed_at INTEGER                  -- NULL until sent back
);

CREATE INDEX sync_dead_open ON sync_dead (replayed_at, id);

CREATE TABLE zip_codes (
  zip TEXT PRIMARY KEY,                -- five digits, "30303"
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  city TEXT NOT NULL,                  -- the post office's place name, "Atlanta"
  state_code TEXT NOT NULL             -- GA
) WITHOUT ROWID;

CREATE TABLE service_state_stats (
  service TEXT NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  cities INTEGER NOT NULL,             -- cities with at least one provider of the service
  leader INTEGER NOT NULL,             -- providers of the state's largest city of the service
  rate_sum REAL NOT NULL,              -- SUM(rate_avg * providers) of the cities
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  checked INTEGER NOT NULL,
  reviewed INTEGER NOT NULL,
  reviews INTEGER NOT NULL,
  rating_sum REAL,                     -- SUM(rating_avg * reviewed), NULL without any rating
  PRIMARY KEY (service, state_code)
) WITHOUT ROWID;

CREATE TABLE city_service_mixes (
  city_id INTEGER NOT NULL,
  services TEXT NOT NULL,              -- service slugs in slug order, comma-separated
  providers INTEGER NOT NULL,
  PRIMARY KEY (city_id, services)
) WITHOUT ROWID;

CREATE TABLE activity_ends (
  keyword TEXT NOT NULL,
  end_date TEXT NOT NULL,              -- YYYY-MM-DD, or 'ongoing'
  activities INTEGER NOT NULL,
  PRIMARY KEY (keyword, end_date)
) WITHOUT ROWID;

CREATE TABLE rate_experience_state_stats (
  service TEXT NOT NULL,
  state_code TEXT NOT NULL,
  band INTEGER NOT NULL,               -- index into EXPERIENCE_BANDS (src/catalog/cost-guides.ts)
  providers INTEGER NOT NULL,
  rate_sum REAL NOT NULL,              -- SUM(rate_avg * providers) of the cities
  PRIMARY KEY (service, state_code, band)
) WITHOUT ROWID;

CREATE TABLE sitemap_caps (
  source TEXT PRIMARY KEY,             -- 'cities', 'providers' or 'jobs'
  size INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE sitemap_blocks (
  source TEXT NOT NULL,
  first_id INTEGER NOT NULL,
  size INTEGER NOT NULL,               -- rows of the table in the block
  PRIMARY KEY (source, first_id)
) WITHOUT ROWID;

INSERT INTO sitemap_caps VALUES ('cities', 1000), ('providers', 50000), ('jobs', 50000);

INSERT INTO sitemap_blocks SELECT source, -9223372036854775808, 0 FROM sitemap_caps;

CREATE TRIGGER cities_sitemap_added AFTER INSERT ON cities BEGIN
  UPDATE sitemap_blocks SET size = size + 1
   WHERE source = 'cities' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'cities' AND first_id <= NEW.id);
END;

CREATE TRIGGER cities_sitemap_removed AFTER DELETE ON cities BEGIN
  UPDATE sitemap_blocks SET size = size - 1
   WHERE source = 'cities' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'cities' AND first_id <= OLD.id);
  DELETE FROM sitemap_blocks
   WHERE source = 'cities' AND size = 0 AND first_id > -9223372036854775808;
END;

CREATE TRIGGER cities_sitemap_split AFTER UPDATE OF size ON sitemap_blocks
  WHEN NEW.source = 'cities' AND NEW.size > (SELECT size FROM sitemap_caps WHERE source = 'cities')
BEGIN
  INSERT INTO sitemap_blocks (source, first_id, size)
  VALUES ('cities', (SELECT id FROM cities WHERE id >= NEW.first_id ORDER BY id LIMIT 1 OFFSET NEW.size / 2),
          NEW.size - NEW.size / 2);
  UPDATE sitemap_blocks SET size = NEW.size / 2 WHERE source = 'cities' AND first_id = NEW.first_id;
END;

CREATE TABLE pending_purges (
  tag TEXT PRIMARY KEY,
  since INTEGER NOT NULL               -- the oldest waiting change, milliseconds since the epoch
) WITHOUT ROWID;

CREATE INDEX pending_purges_since ON pending_purges (since);

CREATE TABLE cron_cursors (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE purge_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  seq INTEGER NOT NULL,                -- every purge row up to this seq is in the snapshot
  made_at INTEGER NOT NULL,            -- milliseconds since the epoch
  unit_now INTEGER NOT NULL,           -- the minute the cells' ages count back from
  unit_max INTEGER NOT NULL,           -- the newest minute of any cell
  cells INTEGER NOT NULL,              -- the sketch's size: another size is not loaded
  complete INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX purge_snapshots_made_at ON purge_snapshots (made_at);

CREATE TABLE purge_snapshot_parts (
  snapshot INTEGER NOT NULL,
  part INTEGER NOT NULL,
  cells TEXT NOT NULL,
  PRIMARY KEY (snapshot, part)
);

CREATE TABLE sync_applied (
  minute INTEGER NOT NULL,             -- milliseconds since the epoch / 60,000
  kind TEXT NOT NULL,
  changes INTEGER NOT NULL,
  last_at INTEGER NOT NULL,            -- milliseconds since the epoch of the minute's last batch
  PRIMARY KEY (minute, kind)
) WITHOUT ROWID;

-- The entity directory: one row per provider and job a shard holds, written by the sync from
-- the shards' outboxes. It decides a profile's or job's status before its shard is read, holds
-- what the page's <head> and shell need (`head`, JSON), and is what the sitemaps of providers and
-- jobs are cut from (the triggers below keep their blocks, as on the single database's tables).
CREATE TABLE provider_directory (
  id INTEGER PRIMARY KEY,
  shard INTEGER NOT NULL,
  city_id INTEGER NOT NULL,
  name_slug TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'live',  -- live | moving (being copied to another shard)
  version INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  head TEXT NOT NULL
);

CREATE TABLE job_directory (
  id INTEGER PRIMARY KEY,
  shard INTEGER NOT NULL,
  city_id INTEGER NOT NULL,
  title_slug TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'live',  -- live | moving
  version INTEGER NOT NULL,
  valid_through TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  head TEXT NOT NULL
);

-- Providers and jobs removed by the sync, keyed as sync_versions keys them (`provider:123`):
-- their pages answer 410 rather than 404.
CREATE TABLE directory_tombstones (
  key TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;

-- The last outbox row of each shard control has applied: an outbox row is applied once, in
-- order, however often a retry sends it.
CREATE TABLE outbox_applied (
  shard INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL
);

CREATE TRIGGER provider_directory_sitemap_added AFTER INSERT ON provider_directory BEGIN
  UPDATE sitemap_blocks SET size = size + 1
   WHERE source = 'providers' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'providers' AND first_id <= NEW.id);
END;

CREATE TRIGGER provider_directory_sitemap_removed AFTER DELETE ON provider_directory BEGIN
  UPDATE sitemap_blocks SET size = size - 1
   WHERE source = 'providers' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'providers' AND first_id <= OLD.id);
  DELETE FROM sitemap_blocks
   WHERE source = 'providers' AND size = 0 AND first_id > -9223372036854775808;
END;

CREATE TRIGGER provider_directory_sitemap_split AFTER UPDATE OF size ON sitemap_blocks
  WHEN NEW.source = 'providers' AND NEW.size > (SELECT size FROM sitemap_caps WHERE source = 'providers')
BEGIN
  INSERT INTO sitemap_blocks (source, first_id, size)
  VALUES ('providers', (SELECT id FROM provider_directory WHERE id >= NEW.first_id ORDER BY id LIMIT 1 OFFSET NEW.size / 2),
          NEW.size - NEW.size / 2);
  UPDATE sitemap_blocks SET size = NEW.size / 2 WHERE source = 'providers' AND first_id = NEW.first_id;
END;

CREATE TRIGGER job_directory_sitemap_added AFTER INSERT ON job_directory BEGIN
  UPDATE sitemap_blocks SET size = size + 1
   WHERE source = 'jobs' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'jobs' AND first_id <= NEW.id);
END;

CREATE TRIGGER job_directory_sitemap_removed AFTER DELETE ON job_directory BEGIN
  UPDATE sitemap_blocks SET size = size - 1
   WHERE source = 'jobs' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'jobs' AND first_id <= OLD.id);
  DELETE FROM sitemap_blocks
   WHERE source = 'jobs' AND size = 0 AND first_id > -9223372036854775808;
END;

CREATE TRIGGER job_directory_sitemap_split AFTER UPDATE OF size ON sitemap_blocks
  WHEN NEW.source = 'jobs' AND NEW.size > (SELECT size FROM sitemap_caps WHERE source = 'jobs')
BEGIN
  INSERT INTO sitemap_blocks (source, first_id, size)
  VALUES ('jobs', (SELECT id FROM job_directory WHERE id >= NEW.first_id ORDER BY id LIMIT 1 OFFSET NEW.size / 2),
          NEW.size - NEW.size / 2);
  UPDATE sitemap_blocks SET size = NEW.size / 2 WHERE source = 'jobs' AND first_id = NEW.first_id;
END;
