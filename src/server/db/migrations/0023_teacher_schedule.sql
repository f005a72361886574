ALTER TABLE "classes" ADD COLUMN "teacher_state" text DEFAULT 'not_started' NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "teacher_confirm_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "teacher_decline_reason" text;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_teacher_state_check" CHECK ("teacher_state" in ('not_started', 'waiting', 'confirmed', 'unconfirmed'));--> statement-breakpoint
-- classes scheduled before the teacher schedule chart (decision 029) were taught as published: their teacher counts as confirmed
UPDATE "classes" SET "teacher_state" = 'confirmed' WHERE "teacher_id" IS NOT NULL;
