CREATE TABLE "payment_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"out_trade_no" text NOT NULL,
	"provider" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "attempt_id" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_out_trade_no" ON "payment_attempts" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_order_seq" ON "payment_attempts" USING btree ("order_id","seq");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- orders sent to a provider before attempts existed: their trade was named by the order number
INSERT INTO "payment_attempts" ("order_id", "seq", "out_trade_no", "provider", "state", "created_at")
SELECT "id", 1, "order_no", "pay_method",
  CASE "state" WHEN 'paying' THEN 'open' WHEN 'payment_failed' THEN 'failed' WHEN 'cancelled' THEN 'closed' ELSE 'paid' END,
  "created_at"
FROM "orders" WHERE "pay_method" IN ('wechat', 'alipay');--> statement-breakpoint
UPDATE "payments" SET "attempt_id" = a."id" FROM "payment_attempts" a WHERE a."order_id" = "payments"."order_id";
