CREATE TABLE "advisers" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_adviser_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"changed_by" integer NOT NULL,
	"from_adviser_id" integer,
	"to_adviser_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "card_adviser_changes_changed" CHECK ("card_adviser_changes"."from_adviser_id" is distinct from "card_adviser_changes"."to_adviser_id")
);
--> statement-breakpoint
CREATE TABLE "card_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"valid_until_before" timestamp with time zone,
	"valid_until_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_freezes" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"from_date" date NOT NULL,
	"until_date" date NOT NULL,
	"valid_until_before" timestamp with time zone,
	"valid_until_after" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"unfrozen_at" timestamp with time zone,
	"unfrozen_valid_until" timestamp with time zone,
	CONSTRAINT "card_freezes_dates" CHECK ("card_freezes"."until_date" >= "card_freezes"."from_date")
);
--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "adviser_id" integer;--> statement-breakpoint
ALTER TABLE "advisers" ADD CONSTRAINT "advisers_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_adviser_changes" ADD CONSTRAINT "card_adviser_changes_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_adviser_changes" ADD CONSTRAINT "card_adviser_changes_changed_by_accounts_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_adviser_changes" ADD CONSTRAINT "card_adviser_changes_from_adviser_id_advisers_id_fk" FOREIGN KEY ("from_adviser_id") REFERENCES "public"."advisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_adviser_changes" ADD CONSTRAINT "card_adviser_changes_to_adviser_id_advisers_id_fk" FOREIGN KEY ("to_adviser_id") REFERENCES "public"."advisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_extensions" ADD CONSTRAINT "card_extensions_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_freezes" ADD CONSTRAINT "card_freezes_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advisers_club" ON "advisers" USING btree ("club_id","sort");--> statement-breakpoint
CREATE INDEX "card_adviser_changes_card" ON "card_adviser_changes" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "card_extensions_card" ON "card_extensions" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "card_freezes_card" ON "card_freezes" USING btree ("card_id","id");--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_adviser_id_advisers_id_fk" FOREIGN KEY ("adviser_id") REFERENCES "public"."advisers"("id") ON DELETE no action ON UPDATE no action;