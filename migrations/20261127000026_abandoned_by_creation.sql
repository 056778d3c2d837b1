-- Saves are HOT again (a save rewrites no index entry). Migration 23 indexed `updated_at` to find abandoned
-- quotes, and every save sets `updated_at`: no save could be a HOT update any more, each wrote an
-- entry in all thirteen indexes of the table (1,855 WAL bytes a save against 198 before;
-- docs/performance.md). A quote's creation never changes, and one not saved since a day was
-- created before it, so the retention job now walks the unsubmitted quotes by creation and keeps
-- those not saved since (db::retention::abandoned).
DROP INDEX applications_abandoned_idx;
CREATE INDEX applications_abandoned_created_idx ON applications (created_at)
    WHERE submission_time IS NULL AND anonymized_at IS NULL;
