CREATE TABLE "coupon_gift_limit" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"max_gifts" integer NOT NULL,
	"period_days" integer NOT NULL,
	CONSTRAINT "coupon_gift_limit_one_row" CHECK ("coupon_gift_limit"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "person_info" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"real_name" text NOT NULL,
	"id_number" text NOT NULL,
	"yoga_age" integer,
	"styles" text[] DEFAULT '{}'::text[] NOT NULL,
	"practice_time" text,
	"salutation" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "person_info_id_number" CHECK ("person_info"."id_number" ~ '^[0-9]{17}[0-9X]$')
);
--> statement-breakpoint
ALTER TABLE "member_coupons" ADD COLUMN "gifted_to_account_id" integer;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD COLUMN "gifted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD COLUMN "gifted_from_coupon_id" integer;--> statement-breakpoint
ALTER TABLE "person_info" ADD CONSTRAINT "person_info_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_gifted_to_account_id_accounts_id_fk" FOREIGN KEY ("gifted_to_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_coupons_gifted_from" ON "member_coupons" USING btree ("gifted_from_coupon_id");--> statement-breakpoint
CREATE INDEX "member_coupons_gifts" ON "member_coupons" USING btree ("account_id","gifted_at");--> statement-breakpoint
INSERT INTO "coupon_gift_limit" ("id", "max_gifts", "period_days") VALUES (1, 3, 30);
