CREATE TABLE "activity_signups" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "complaint_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"complaint_id" integer,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"club_id" integer,
	"content" text NOT NULL,
	"state" text DEFAULT 'filed' NOT NULL,
	"reply" text,
	"replied_by" integer,
	"replied_at" timestamp with time zone,
	"overdue_at" timestamp with time zone,
	"rated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "complaints_reply_kept" CHECK (("complaints"."state" in ('filed', 'overdue')) = ("complaints"."reply" is null)),
	CONSTRAINT "complaints_state_check" CHECK ("state" in ('filed', 'overdue', 'replied', 'satisfied', 'unsatisfied'))
);
--> statement-breakpoint
CREATE TABLE "staff_clubs" (
	"account_id" integer NOT NULL,
	"club_id" integer NOT NULL,
	CONSTRAINT "staff_clubs_account_id_club_id_pk" PRIMARY KEY("account_id","club_id")
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "places" integer;--> statement-breakpoint
ALTER TABLE "activity_signups" ADD CONSTRAINT "activity_signups_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_signups" ADD CONSTRAINT "activity_signups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_images" ADD CONSTRAINT "complaint_images_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_images" ADD CONSTRAINT "complaint_images_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_replied_by_accounts_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_clubs" ADD CONSTRAINT "staff_clubs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_clubs" ADD CONSTRAINT "staff_clubs_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_signups_one" ON "activity_signups" USING btree ("activity_id","account_id");--> statement-breakpoint
CREATE INDEX "activity_signups_activity" ON "activity_signups" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "complaint_images_account" ON "complaint_images" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "complaint_images_complaint" ON "complaint_images" USING btree ("complaint_id");--> statement-breakpoint
CREATE INDEX "complaints_account" ON "complaints" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "complaints_awaiting" ON "complaints" USING btree ("id") WHERE "complaints"."state" in ('filed', 'overdue');--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_places" CHECK ("activities"."places" is null or "activities"."places" > 0);