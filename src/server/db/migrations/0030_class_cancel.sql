ALTER TABLE "classes" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "cancelled_by" integer;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_cancelled_by_accounts_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;