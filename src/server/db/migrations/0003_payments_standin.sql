CREATE TABLE "pay_standin_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"merchant_id" text NOT NULL,
	"app_id" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"prepay_id" text,
	"provider_txn_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text NOT NULL,
	"payer_open_id" text,
	"notify_url" text NOT NULL,
	"state" text NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pay_standin_order_no" ON "pay_standin_orders" USING btree ("provider","merchant_id","out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_standin_txn" ON "pay_standin_orders" USING btree ("provider","provider_txn_id");--> statement-breakpoint
CREATE INDEX "pay_standin_prepay" ON "pay_standin_orders" USING btree ("prepay_id");