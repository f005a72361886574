-- Teacher-request photos encrypted at rest (decision 055). SQL cannot encrypt (the key is not in the database):
-- rows from before keep their plain bytes with a null photo_key_id until the start-up step (sealPlainRows) seals them.
ALTER TABLE "teacher_requests" ADD COLUMN "photo_wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "teacher_requests" ADD COLUMN "photo_key_id" text;--> statement-breakpoint
ALTER TABLE "teacher_requests" ADD COLUMN "photo_nonce" "bytea";