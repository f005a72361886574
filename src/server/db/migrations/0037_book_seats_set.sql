-- Decision 048: book_seats decides a batch with one INSERT for every seat and
-- queue place instead of one INSERT per request in a loop. The timeline of a booking race showed the
-- loop as each batch's longest statement (14-19 ms for 156 requests: an executor, a snapshot and the
-- foreign-key triggers' queue per request). Same arguments, same answers, same rules:
--   * the class row lock (p_lock = false: the race tests' negative control only) and 'stale' as before;
--   * the first free seats go to the first requests in arrival order (ord), the rest to the queue while
--     it has room (counted under the lock, only when someone is left without a seat), then 'queue_full';
--   * booking ids ascend in arrival order (the INSERT's rows are produced in ord order and PostgreSQL
--     draws the id default after the sort): promotion takes the queue by id, and takeSeats checks it;
--   * the cards of the seated requests are spent and activated by one UPDATE, the booked count written once.
-- A batch holds one request per member and one per card (the caller's rule): the answers are matched
-- to the inserted rows by member and the cards' UPDATE must touch each card once, so a batch that
-- breaks the rule is refused whole rather than decided wrong.
CREATE OR REPLACE FUNCTION book_seats(
  p_class_id integer,
  p_now timestamptz,
  p_starts_at timestamptz,
  p_duration_min integer,
  p_uses_cost integer,
  p_requests jsonb,
  p_lock boolean
) RETURNS TABLE (ord integer, outcome text, booking_id integer, queue_position integer)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  c record;
  v_n integer := jsonb_array_length(p_requests);
  v_seats integer;
  v_queued integer := 0;
  v_places integer := 0;
BEGIN
  IF p_lock THEN
    SELECT k.booked_count, k.capacity, k.queue_capacity, k.status, k.starts_at, k.duration_min, k.uses_cost INTO c
      FROM classes k WHERE k.id = p_class_id FOR UPDATE;
  ELSE
    SELECT k.booked_count, k.capacity, k.queue_capacity, k.status, k.starts_at, k.duration_min, k.uses_cost INTO c
      FROM classes k WHERE k.id = p_class_id;
  END IF;
  IF NOT FOUND OR c.status <> 'open' OR c.starts_at <> p_starts_at OR c.duration_min <> p_duration_min OR c.uses_cost <> p_uses_cost OR p_now >= c.starts_at THEN
    RETURN QUERY SELECT (x.o - 1)::integer, 'stale'::text, NULL::integer, NULL::integer
      FROM jsonb_array_elements(p_requests) WITH ORDINALITY AS x(v, o);
    RETURN;
  END IF;
  IF (SELECT count(DISTINCT x.v->>'account_id') <> v_n OR count(DISTINCT x.v->>'card_id') <> v_n FROM jsonb_array_elements(p_requests) AS x(v)) THEN
    RAISE EXCEPTION 'book_seats: a batch holds one request per member and one per card';
  END IF;
  -- the first v_seats requests get a seat; the next v_places a queue place; the rest 'queue_full'
  v_seats := least(v_n, greatest(c.capacity - c.booked_count, 0));
  IF v_n > v_seats THEN
    SELECT count(*)::integer INTO v_queued FROM bookings b WHERE b.class_id = p_class_id AND b.state = 'queued';
    v_places := least(v_n - v_seats, greatest(c.queue_capacity - v_queued, 0));
  END IF;
  RETURN QUERY
  WITH req AS MATERIALIZED (
    SELECT (x.o - 1)::integer AS i, (x.v->>'account_id')::integer AS account_id, (x.v->>'card_id')::integer AS card_id,
           (x.v->>'spend')::integer AS spend, x.v->>'activate_status' AS activate_status, (x.v->>'valid_until')::timestamptz AS valid_until
      FROM jsonb_array_elements(p_requests) WITH ORDINALITY AS x(v, o)
  ), taken AS (
    INSERT INTO bookings (class_id, account_id, card_id, state, uses_spent, created_at, booked_at, queued_at)
    SELECT p_class_id, r.account_id, r.card_id,
           CASE WHEN r.i < v_seats THEN 'booked' ELSE 'queued' END,
           CASE WHEN r.i < v_seats THEN r.spend ELSE 0 END,
           p_now,
           CASE WHEN r.i < v_seats THEN p_now END,
           CASE WHEN r.i < v_seats THEN NULL ELSE p_now END
      FROM req r WHERE r.i < v_seats + v_places ORDER BY r.i
    RETURNING bookings.id, bookings.account_id
  ), spent AS (
    UPDATE member_cards m SET
      uses_left = CASE WHEN r.spend > 0 THEN m.uses_left - r.spend ELSE m.uses_left END,
      status = coalesce(r.activate_status, m.status),
      valid_from = CASE WHEN r.activate_status IS NULL THEN m.valid_from ELSE p_now END,
      valid_until = CASE WHEN r.activate_status IS NULL THEN m.valid_until ELSE r.valid_until END
      FROM req r
     WHERE m.id = r.card_id AND r.i < v_seats AND (r.spend > 0 OR r.activate_status IS NOT NULL)
  )
  SELECT r.i,
         CASE WHEN r.i < v_seats THEN 'booked' WHEN r.i < v_seats + v_places THEN 'queued' ELSE 'queue_full' END,
         t.id,
         CASE WHEN r.i >= v_seats AND r.i < v_seats + v_places THEN v_queued + (r.i - v_seats) + 1 END
    FROM req r LEFT JOIN taken t ON t.account_id = r.account_id
   ORDER BY r.i;
  IF v_seats > 0 THEN
    UPDATE classes SET booked_count = classes.booked_count + v_seats WHERE classes.id = p_class_id;
  END IF;
END
$$;
