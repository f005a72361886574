CREATE TABLE "coupon_terms" (
	"goods_id" integer PRIMARY KEY NOT NULL,
	"off_cents" integer DEFAULT 0 NOT NULL,
	"percent_off" integer,
	"min_spend_cents" integer DEFAULT 0 NOT NULL,
	"applies_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"validity_days" integer DEFAULT 30 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods_phases" (
	"id" serial PRIMARY KEY NOT NULL,
	"goods_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"list_price_cents" integer,
	"member_price_cents" integer,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods_teachers" (
	"id" serial PRIMARY KEY NOT NULL,
	"goods_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"goods_id" integer,
	"name" text NOT NULL,
	"name_en" text,
	"off_cents" integer DEFAULT 0 NOT NULL,
	"percent_off" integer,
	"min_spend_cents" integer DEFAULT 0 NOT NULL,
	"applies_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'unused' NOT NULL,
	"used_order_id" integer,
	"used_at" timestamp with time zone,
	"source_order_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"goods_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"phase_id" integer,
	"teacher_id" integer,
	"club_id" integer,
	"uses_total" integer,
	"uses_left" integer,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "phase_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "teacher_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "issued_course_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "issued_coupon_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coupon_terms" ADD CONSTRAINT "coupon_terms_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_phases" ADD CONSTRAINT "goods_phases_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_teachers" ADD CONSTRAINT "goods_teachers_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_teachers" ADD CONSTRAINT "goods_teachers_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_used_order_id_orders_id_fk" FOREIGN KEY ("used_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_source_order_id_orders_id_fk" FOREIGN KEY ("source_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_courses" ADD CONSTRAINT "member_courses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_courses" ADD CONSTRAINT "member_courses_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_courses" ADD CONSTRAINT "member_courses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_courses" ADD CONSTRAINT "member_courses_phase_id_goods_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."goods_phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_courses" ADD CONSTRAINT "member_courses_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goods_phases_goods" ON "goods_phases" USING btree ("goods_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "goods_teachers_pair" ON "goods_teachers" USING btree ("goods_id","teacher_id");--> statement-breakpoint
CREATE INDEX "member_coupons_account" ON "member_coupons" USING btree ("account_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "member_coupons_source" ON "member_coupons" USING btree ("source_order_id");--> statement-breakpoint
CREATE INDEX "member_courses_account" ON "member_courses" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_courses_order" ON "member_courses" USING btree ("order_id");