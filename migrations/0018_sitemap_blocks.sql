-- Sitemap files are blocks of rows in id order: a few thousand cities, or 50,000 providers or jobs
-- (src/routes/sitemaps.ts). Finding a block by counting rows, or by skipping the rows before it,
-- reads every row of the catalog on each request; here each block's first id and its number of
-- rows are kept instead, so a sitemap reads a few rows of this table and the id range they name
-- (docs/seo.md).

-- The most rows a block may hold, per table; src/routes/sitemaps.ts keeps every file within
-- 50,000 URLs from these. A block of cities is up to 12 pages a city, whose rows of
-- service_city_stats a file reads at once: 1,000 cities keep that read well within D1's read
-- deadline on a loaded machine, where 4,000 (46,000 rows) once passed it (docs/seo.md).
CREATE TABLE sitemap_caps (
  source TEXT PRIMARY KEY,             -- 'cities', 'providers' or 'jobs'
  size INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO sitemap_caps VALUES ('cities', 1000), ('providers', 50000), ('jobs', 50000);

-- A block holds the ids from its first_id up to the next block's. The first block of a table
-- starts at the lowest id there is, so every id falls in one.
CREATE TABLE sitemap_blocks (
  source TEXT NOT NULL,
  first_id INTEGER NOT NULL,
  size INTEGER NOT NULL,               -- rows of the table in the block
  PRIMARY KEY (source, first_id)
) WITHOUT ROWID;
INSERT INTO sitemap_blocks (source, first_id, size)
SELECT 'cities', IIF(n = 0, -9223372036854775808, MIN(id)), COUNT(*) FROM (
  SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1)
             / (SELECT size FROM sitemap_caps WHERE source = 'cities') AS n
    FROM cities)
 GROUP BY n;
INSERT INTO sitemap_blocks (source, first_id, size)
SELECT 'providers', IIF(n = 0, -9223372036854775808, MIN(id)), COUNT(*) FROM (
  SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1)
             / (SELECT size FROM sitemap_caps WHERE source = 'providers') AS n
    FROM providers)
 GROUP BY n;
INSERT INTO sitemap_blocks (source, first_id, size)
SELECT 'jobs', IIF(n = 0, -9223372036854775808, MIN(id)), COUNT(*) FROM (
  SELECT id, (ROW_NUMBER() OVER (ORDER BY id) - 1)
             / (SELECT size FROM sitemap_caps WHERE source = 'jobs') AS n
    FROM jobs)
 GROUP BY n;
INSERT OR IGNORE INTO sitemap_blocks SELECT source, -9223372036854775808, 0 FROM sitemap_caps;

-- Every write of the three tables keeps the blocks, whichever way it comes (the catalog sync's
-- consumer, the import, a hand-run statement). A row added to a full block splits it at its
-- middle, as a B-tree page splits, so rows added anywhere fill the two halves before either
-- splits again; an emptied block is dropped and its ids join the block before. The cron and
-- the import pack the blocks full again (src/data/sitemap-rows.ts).
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
CREATE TRIGGER providers_sitemap_added AFTER INSERT ON providers BEGIN
  UPDATE sitemap_blocks SET size = size + 1
   WHERE source = 'providers' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'providers' AND first_id <= NEW.id);
END;
CREATE TRIGGER providers_sitemap_removed AFTER DELETE ON providers BEGIN
  UPDATE sitemap_blocks SET size = size - 1
   WHERE source = 'providers' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'providers' AND first_id <= OLD.id);
  DELETE FROM sitemap_blocks
   WHERE source = 'providers' AND size = 0 AND first_id > -9223372036854775808;
END;
CREATE TRIGGER providers_sitemap_split AFTER UPDATE OF size ON sitemap_blocks
  WHEN NEW.source = 'providers' AND NEW.size > (SELECT size FROM sitemap_caps WHERE source = 'providers')
BEGIN
  INSERT INTO sitemap_blocks (source, first_id, size)
  VALUES ('providers', (SELECT id FROM providers WHERE id >= NEW.first_id ORDER BY id LIMIT 1 OFFSET NEW.size / 2),
          NEW.size - NEW.size / 2);
  UPDATE sitemap_blocks SET size = NEW.size / 2 WHERE source = 'providers' AND first_id = NEW.first_id;
END;
CREATE TRIGGER jobs_sitemap_added AFTER INSERT ON jobs BEGIN
  UPDATE sitemap_blocks SET size = size + 1
   WHERE source = 'jobs' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'jobs' AND first_id <= NEW.id);
END;
CREATE TRIGGER jobs_sitemap_removed AFTER DELETE ON jobs BEGIN
  UPDATE sitemap_blocks SET size = size - 1
   WHERE source = 'jobs' AND first_id = (SELECT MAX(first_id) FROM sitemap_blocks
                                        WHERE source = 'jobs' AND first_id <= OLD.id);
  DELETE FROM sitemap_blocks
   WHERE source = 'jobs' AND size = 0 AND first_id > -9223372036854775808;
END;
CREATE TRIGGER jobs_sitemap_split AFTER UPDATE OF size ON sitemap_blocks
  WHEN NEW.source = 'jobs' AND NEW.size > (SELECT size FROM sitemap_caps WHERE source = 'jobs')
BEGIN
  INSERT INTO sitemap_blocks (source, first_id, size)
  VALUES ('jobs', (SELECT id FROM jobs WHERE id >= NEW.first_id ORDER BY id LIMIT 1 OFFSET NEW.size / 2),
          NEW.size - NEW.size / 2);
  UPDATE sitemap_blocks SET size = NEW.size / 2 WHERE source = 'jobs' AND first_id = NEW.first_id;
END;
