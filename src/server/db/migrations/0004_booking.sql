CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"state" text NOT NULL,
	"promoted" boolean DEFAULT false NOT NULL,
	"queued_at" timestamp with time zone,
	"uses_spent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"booked_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"cancel_reason" text
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"room" text NOT NULL,
	"room_en" text,
	"teacher_id" integer,
	"class_type" text NOT NULL,
	"style" text NOT NULL,
	"effect" text NOT NULL,
	"difficulty" text NOT NULL,
	"title" text NOT NULL,
	"title_en" text,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_min" integer NOT NULL,
	"capacity" integer NOT NULL,
	"booked_count" integer DEFAULT 0 NOT NULL,
	"queue_capacity" integer DEFAULT 20 NOT NULL,
	"uses_cost" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"goods_id" integer,
	"card_type" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"number" text NOT NULL,
	"club_id" integer,
	"status" text DEFAULT 'inactive' NOT NULL,
	"uses_total" integer,
	"uses_left" integer,
	"validity_days" integer,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"extension_count" integer DEFAULT 0 NOT NULL,
	"weekend_only" boolean DEFAULT false NOT NULL,
	"off_peak_slots" text[],
	"max_difficulty" text,
	"booking_window_days" integer,
	"experience" boolean DEFAULT false NOT NULL,
	"buyer_account_id" integer,
	"allowed_class_types" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_buyer_account_id_accounts_id_fk" FOREIGN KEY ("buyer_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_live" ON "bookings" USING btree ("class_id","account_id") WHERE "bookings"."state" in ('booked', 'queued');--> statement-breakpoint
CREATE INDEX "bookings_account" ON "bookings" USING btree ("account_id","state");--> statement-breakpoint
CREATE INDEX "bookings_class" ON "bookings" USING btree ("class_id","state","queued_at");--> statement-breakpoint
CREATE INDEX "bookings_card" ON "bookings" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "classes_starts" ON "classes" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "classes_club_starts" ON "classes" USING btree ("club_id","starts_at");--> statement-breakpoint
CREATE INDEX "member_cards_account" ON "member_cards" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_cards_number" ON "member_cards" USING btree ("number");