CREATE TABLE "card_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"quoted_cents" integer NOT NULL,
	"amount_cents" integer,
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "card_refunds_approved_amount" CHECK (("card_refunds"."state" = 'approved') = ("card_refunds"."amount_cents" is not null)),
	CONSTRAINT "card_refunds_state_check" CHECK ("state" in ('pending', 'approved', 'rejected', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "card_type_rules" ADD COLUMN "refund_fee_percent" integer;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_refunds" ADD CONSTRAINT "card_refunds_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_refunds_one_open" ON "card_refunds" USING btree ("card_id") WHERE "card_refunds"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "card_refunds_one_approved" ON "card_refunds" USING btree ("card_id") WHERE "card_refunds"."state" = 'approved';--> statement-breakpoint
CREATE INDEX "card_refunds_account" ON "card_refunds" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "card_refunds_open" ON "card_refunds" USING btree ("id") WHERE "card_refunds"."state" = 'pending';--> statement-breakpoint
UPDATE "card_type_rules" SET "refund_fee_percent" = 10 WHERE "card_type" in ('count', 'time-based', 'private-lesson', 'restricted', 'family-main');
