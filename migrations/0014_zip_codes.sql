-- US ZIP codes and where they are, so a visitor who types a ZIP finds the nearest city with
-- care (docs/pages.md, "Search"). Loaded by the seed from the `zipcodes` package; the pages only
-- read it, by primary key.
CREATE TABLE zip_codes (
  zip TEXT PRIMARY KEY,                -- five digits, "30303"
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  city TEXT NOT NULL,                  -- the post office's place name, "Atlanta"
  state_code TEXT NOT NULL             -- GA
) WITHOUT ROWID;
