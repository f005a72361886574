-- book_seats loses its lock flag (the class row is always locked; the race tests build their unlocked
-- variant themselves): a new argument list is a new function, so the one with the flag is dropped here
-- and the migration runner then creates the current one from src/server/db/functions/book_seats.sql.
DROP FUNCTION IF EXISTS book_seats(integer, timestamptz, timestamptz, integer, integer, jsonb, boolean);
