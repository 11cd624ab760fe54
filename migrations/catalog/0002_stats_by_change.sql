-- A shard's side of migrations/0023_stats_by_change.sql: a sync batch's providers live on their
-- shard, so what they contributed to the stats before the batch is kept there.

CREATE TABLE listing_stats_before (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  band INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  mid_sum REAL NOT NULL,               -- SUM((rate_min + rate_max) / 2.0), exact: halves of integers
  checked INTEGER NOT NULL,
  reviewed INTEGER NOT NULL,
  reviews INTEGER NOT NULL,
  rating100 INTEGER NOT NULL,          -- SUM(ROUND(rating * 100)) of those rated
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  pay_unit TEXT NOT NULL,
  PRIMARY KEY (service, city_id, band)
) WITHOUT ROWID;

CREATE TABLE service_mixes_before (
  city_id INTEGER NOT NULL,
  services TEXT NOT NULL,
  providers INTEGER NOT NULL,
  PRIMARY KEY (city_id, services)
) WITHOUT ROWID;
