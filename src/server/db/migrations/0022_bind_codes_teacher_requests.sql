CREATE TABLE "bind_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"teacher_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"hint" text NOT NULL,
	"issued_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by_open_id" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "teacher_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"open_id" text NOT NULL,
	"view_hash" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"club_id" integer NOT NULL,
	"styles" text[] NOT NULL,
	"photo_type" text NOT NULL,
	"photo" "bytea" NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"teacher_id" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "teacher_requests_state_check" CHECK ("state" in ('pending', 'confirmed', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "bind_codes" ADD CONSTRAINT "bind_codes_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bind_codes" ADD CONSTRAINT "bind_codes_issued_by_accounts_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_requests" ADD CONSTRAINT "teacher_requests_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_requests" ADD CONSTRAINT "teacher_requests_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_requests" ADD CONSTRAINT "teacher_requests_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bind_codes_hash" ON "bind_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "bind_codes_teacher" ON "bind_codes" USING btree ("teacher_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "teacher_requests_view" ON "teacher_requests" USING btree ("view_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "teacher_requests_one_pending" ON "teacher_requests" USING btree ("open_id") WHERE "teacher_requests"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "teacher_requests_state" ON "teacher_requests" USING btree ("state","id");