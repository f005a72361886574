ALTER TABLE "payment_attempts" ADD COLUMN "start" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_open" ON "payment_attempts" USING btree ("order_id") WHERE "payment_attempts"."state" = 'open';--> statement-breakpoint
-- a payment taken for an order already paid or over: flagged for a refund (decision 013)
UPDATE "payments" SET "status" = 'needs_refund' WHERE "status" = 'late';
