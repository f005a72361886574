-- A member's live bookings, led by the member (decision 048, session 30). A booking's facts count the
-- member's upcoming bookings; on a bookings table whose statistics lag (a morning's rush of new rows)
-- the planner walked bookings_live, led by the class, whole for each member of a batch: 0.1 ms a
-- member, growing with every live booking of every class. This index answers in 0.02 ms.
CREATE INDEX "bookings_account_live" ON "bookings" USING btree ("account_id","class_id") WHERE "bookings"."state" in ('booked', 'queued');