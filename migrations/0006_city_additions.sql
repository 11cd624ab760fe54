-- Cities keep their GeoNames ids, which do not grow with time. This log gives every city slug an
-- increasing number as it appears (a new city, or a new slug for one), so the gate can ask for
-- the cities added after it was built: `seq > ?` on the primary key (src/gate/new-cities.ts).
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
