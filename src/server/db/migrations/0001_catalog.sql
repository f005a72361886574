CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_en" text,
	"image" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"summary_en" text,
	"body" text DEFAULT '' NOT NULL,
	"body_en" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"club_id" integer,
	"goods_id" integer,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_en" text,
	"image" text NOT NULL,
	"link" text,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"description" text DEFAULT '' NOT NULL,
	"description_en" text,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "class_types_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "clubs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"city" text NOT NULL,
	"city_en" text,
	"address" text NOT NULL,
	"address_en" text,
	"phone" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"cover_image" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"intro_en" text,
	"opening_hours" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"card_type" text,
	"name" text NOT NULL,
	"name_en" text,
	"image" text NOT NULL,
	"list_price_cents" integer NOT NULL,
	"member_price_cents" integer NOT NULL,
	"stock" integer,
	"sold" integer DEFAULT 0 NOT NULL,
	"on_shelf" boolean DEFAULT true NOT NULL,
	"uses" integer,
	"validity_days" integer,
	"description" text DEFAULT '' NOT NULL,
	"description_en" text,
	"club_id" integer,
	"teacher_id" integer,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"new_customers_only" boolean DEFAULT false NOT NULL,
	"per_person_limit" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "styles" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"description" text DEFAULT '' NOT NULL,
	"description_en" text,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "styles_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "survey_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"survey_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"option_id" integer,
	"skip_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"survey_id" integer NOT NULL,
	"label" text NOT NULL,
	"label_en" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"question_en" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teachers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"photo" text NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"bio_en" text,
	"styles" text[] DEFAULT '{}' NOT NULL,
	"club_id" integer,
	"years" integer DEFAULT 0 NOT NULL,
	"account_id" integer,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_option_id_survey_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."survey_options"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_options" ADD CONSTRAINT "survey_options_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teachers" ADD CONSTRAINT "teachers_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teachers" ADD CONSTRAINT "teachers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_ends" ON "activities" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "goods_shelf" ON "goods" USING btree ("on_shelf","kind","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_answers_member" ON "survey_answers" USING btree ("survey_id","account_id");--> statement-breakpoint
CREATE INDEX "survey_options_survey" ON "survey_options" USING btree ("survey_id");--> statement-breakpoint
CREATE INDEX "teachers_club" ON "teachers" USING btree ("club_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teachers_account" ON "teachers" USING btree ("account_id");