CREATE TABLE "coupon_rewards" (
	"rule" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"off_cents" integer NOT NULL,
	"min_spend_cents" integer DEFAULT 0 NOT NULL,
	"applies_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"validity_days" integer DEFAULT 30 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_coupons" ADD COLUMN "reward_rule" text;--> statement-breakpoint
CREATE UNIQUE INDEX "member_coupons_reward_once" ON "member_coupons" USING btree ("account_id","reward_rule");