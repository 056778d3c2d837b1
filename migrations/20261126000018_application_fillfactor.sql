-- A step save rewrites an application's row, and saves should stay cheap. With pages filled to the brim by
-- inserts, the new version of a row seldom fits beside the old one: the save moves the row to
-- another page and adds an entry to every index of the table (eleven), and the table bloats.
-- Pages now keep 30 % free for new versions, so a save that changes no indexed column (most
-- saves: the dashboard's name, date and carrier columns change at a few steps) stays on its page
-- as a HOT update and writes no index entry. tests/load/hot_updates.sql (2,000 journeys of 12
-- saves, interleaved as applications are): fill factor 100 gives 50 % HOT updates and a table of
-- 18 MB; 80 gives 98 %, 3.9 MB; 70 gives 100 %, 4.0 MB. Pages written before this migration keep
-- their fill until they are rewritten.
ALTER TABLE applications SET (fillfactor = 70);
