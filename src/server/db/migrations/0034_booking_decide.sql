-- Decision 048: the part of a booking decision that needs the class row lock, as one call.
-- The caller has already, in the same transaction and before this call, locked the member and the card,
-- and checked everything else (card rules, windows, clashes, limits) against what it read. This locks
-- the class row, checks that the class is still the one those checks saw (else 'stale': the caller
-- retries the whole decision), and books a seat (spending the card's uses, activating it) while there
-- is room, else joins the queue; the row lock is held for this one statement and the commit.
-- p_lock = false is the race tests' negative control only (no row lock: it oversells).
-- Each statement of a PL/pgSQL function takes a new snapshot (READ COMMITTED), so the queue is
-- counted after the lock is held: it sees every entry committed before.
CREATE FUNCTION book_seat(
  p_class_id integer,
  p_account_id integer,
  p_card_id integer,
  p_now timestamptz,
  p_starts_at timestamptz,
  p_duration_min integer,
  p_uses_cost integer,
  p_spend integer,
  p_activate_status text,
  p_valid_until timestamptz,
  p_lock boolean
) RETURNS TABLE (outcome text, booking_id integer, queue_position integer)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  c record;
  v_id integer;
  v_queued integer;
BEGIN
  IF p_lock THEN
    SELECT k.booked_count, k.capacity, k.queue_capacity, k.status, k.starts_at, k.duration_min, k.uses_cost INTO c
      FROM classes k WHERE k.id = p_class_id FOR UPDATE;
  ELSE
    SELECT k.booked_count, k.capacity, k.queue_capacity, k.status, k.starts_at, k.duration_min, k.uses_cost INTO c
      FROM classes k WHERE k.id = p_class_id;
  END IF;
  IF NOT FOUND OR c.status <> 'open' OR c.starts_at <> p_starts_at OR c.duration_min <> p_duration_min OR c.uses_cost <> p_uses_cost OR p_now >= c.starts_at THEN
    RETURN QUERY SELECT 'stale'::text, NULL::integer, NULL::integer;
    RETURN;
  END IF;
  IF c.booked_count < c.capacity THEN
    INSERT INTO bookings (class_id, account_id, card_id, state, uses_spent, created_at, booked_at)
      VALUES (p_class_id, p_account_id, p_card_id, 'booked', p_spend, p_now, p_now)
      RETURNING bookings.id INTO v_id;
    UPDATE classes SET booked_count = classes.booked_count + 1 WHERE classes.id = p_class_id;
    IF p_spend > 0 OR p_activate_status IS NOT NULL THEN
      UPDATE member_cards SET
        uses_left = CASE WHEN p_spend > 0 THEN member_cards.uses_left - p_spend ELSE member_cards.uses_left END,
        status = coalesce(p_activate_status, member_cards.status),
        valid_from = CASE WHEN p_activate_status IS NULL THEN member_cards.valid_from ELSE p_now END,
        valid_until = CASE WHEN p_activate_status IS NULL THEN member_cards.valid_until ELSE p_valid_until END
      WHERE member_cards.id = p_card_id;
    END IF;
    RETURN QUERY SELECT 'booked'::text, v_id, NULL::integer;
    RETURN;
  END IF;
  SELECT count(*)::integer INTO v_queued FROM bookings b WHERE b.class_id = p_class_id AND b.state = 'queued';
  IF v_queued >= c.queue_capacity THEN
    RETURN QUERY SELECT 'queue_full'::text, NULL::integer, NULL::integer;
    RETURN;
  END IF;
  INSERT INTO bookings (class_id, account_id, card_id, state, queued_at, created_at)
    VALUES (p_class_id, p_account_id, p_card_id, 'queued', p_now, p_now)
    RETURNING bookings.id INTO v_id;
  RETURN QUERY SELECT 'queued'::text, v_id, v_queued + 1;
END
$$;
--> statement-breakpoint
-- Group commit (decision 048): the decisions for one class that arrived together, under one lock, in
-- arrival order. p_requests is a JSON array of {account_id, card_id, spend, activate_status,
-- valid_until}, each checked by the caller as for book_seat (one per member and one per card in a
-- batch); the answer has one row per request, ord = its index. The class's booked count is written once.
CREATE FUNCTION book_seats(
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
  r record;
  v_id integer;
  v_booked integer;
  v_queued integer := NULL;
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
  v_booked := c.booked_count;
  FOR r IN SELECT (x.o - 1)::integer AS i, (x.v->>'account_id')::integer AS account_id, (x.v->>'card_id')::integer AS card_id,
                  (x.v->>'spend')::integer AS spend, x.v->>'activate_status' AS activate_status, (x.v->>'valid_until')::timestamptz AS valid_until
             FROM jsonb_array_elements(p_requests) WITH ORDINALITY AS x(v, o) ORDER BY x.o
  LOOP
    IF v_booked < c.capacity THEN
      INSERT INTO bookings (class_id, account_id, card_id, state, uses_spent, created_at, booked_at)
        VALUES (p_class_id, r.account_id, r.card_id, 'booked', r.spend, p_now, p_now)
        RETURNING bookings.id INTO v_id;
      v_booked := v_booked + 1;
      IF r.spend > 0 OR r.activate_status IS NOT NULL THEN
        UPDATE member_cards SET
          uses_left = CASE WHEN r.spend > 0 THEN member_cards.uses_left - r.spend ELSE member_cards.uses_left END,
          status = coalesce(r.activate_status, member_cards.status),
          valid_from = CASE WHEN r.activate_status IS NULL THEN member_cards.valid_from ELSE p_now END,
          valid_until = CASE WHEN r.activate_status IS NULL THEN member_cards.valid_until ELSE r.valid_until END
        WHERE member_cards.id = r.card_id;
      END IF;
      RETURN QUERY SELECT r.i, 'booked'::text, v_id, NULL::integer;
    ELSE
      IF v_queued IS NULL THEN
        SELECT count(*)::integer INTO v_queued FROM bookings b WHERE b.class_id = p_class_id AND b.state = 'queued';
      END IF;
      IF v_queued >= c.queue_capacity THEN
        RETURN QUERY SELECT r.i, 'queue_full'::text, NULL::integer, NULL::integer;
      ELSE
        INSERT INTO bookings (class_id, account_id, card_id, state, queued_at, created_at)
          VALUES (p_class_id, r.account_id, r.card_id, 'queued', p_now, p_now)
          RETURNING bookings.id INTO v_id;
        v_queued := v_queued + 1;
        RETURN QUERY SELECT r.i, 'queued'::text, v_id, v_queued;
      END IF;
    END IF;
  END LOOP;
  IF v_booked <> c.booked_count THEN
    UPDATE classes SET booked_count = classes.booked_count + (v_booked - c.booked_count) WHERE classes.id = p_class_id;
  END IF;
END
$$;
