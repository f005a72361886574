CREATE TABLE "member_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"state" text DEFAULT 'reviewing' NOT NULL,
	"reject_reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "checked_in_by" integer;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "checkin_code" text DEFAULT substr(md5(random()::text), 1, 8) NOT NULL;--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_reviewed_by_accounts_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_photos_account" ON "member_photos" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "member_photos_state" ON "member_photos" USING btree ("state","id");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_checked_in_by_accounts_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;