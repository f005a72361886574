CREATE TABLE "pay_standin_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"merchant_id" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"out_refund_no" text NOT NULL,
	"refund_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"reason" text,
	"notify_url" text,
	"state" text NOT NULL,
	"simulate" text,
	"created_at" timestamp with time zone NOT NULL,
	"succeeded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pay_standin_refund_no" ON "pay_standin_refunds" USING btree ("provider","merchant_id","out_refund_no");--> statement-breakpoint
CREATE INDEX "pay_standin_refund_trade" ON "pay_standin_refunds" USING btree ("provider","out_trade_no");