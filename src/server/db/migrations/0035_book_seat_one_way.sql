-- One way to take seats under the class row lock: a single booking is book_seats (migration 0034) with
-- one request, so book_seat, its one-request copy, goes. book_seats takes the lock flag as book_seat
-- did (false only in the race tests' negative control).
DROP FUNCTION book_seat(integer, integer, integer, timestamptz, timestamptz, integer, integer, integer, text, timestamptz, boolean);
