ALTER TABLE "member_photos" DROP CONSTRAINT "member_photos_state_check";--> statement-breakpoint
ALTER TABLE "member_photos" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "reopened_by" integer;--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "reopened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_reopened_by_accounts_id_fk" FOREIGN KEY ("reopened_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_state_check" CHECK ("state" in ('reviewing', 'rejected', 'passed', 'reopened'));