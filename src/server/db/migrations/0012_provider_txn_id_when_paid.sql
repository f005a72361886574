ALTER TABLE "pay_standin_orders" ALTER COLUMN "provider_txn_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "provider_txn_id" DROP NOT NULL;--> statement-breakpoint
-- a WeChat Pay failure was stored with an empty transaction id: it has none
UPDATE "payments" SET "provider_txn_id" = NULL WHERE "provider_txn_id" = '';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_attempt_failed" ON "payments" USING btree ("attempt_id") WHERE "payments"."status" = 'failed';