CREATE TABLE "card_family_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"added_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" integer,
	CONSTRAINT "card_family_members_not_holder" CHECK ("card_family_members"."account_id" <> "card_family_members"."added_by"),
	CONSTRAINT "card_family_members_removed" CHECK (("card_family_members"."removed_at" is null) = ("card_family_members"."removed_by" is null))
);
--> statement-breakpoint
ALTER TABLE "card_type_rules" ADD COLUMN "family_slots" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_type_rules" ADD COLUMN "giftable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "gifted_from_account_id" integer;--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "gifted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_family_members" ADD CONSTRAINT "card_family_members_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_family_members" ADD CONSTRAINT "card_family_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_family_members" ADD CONSTRAINT "card_family_members_added_by_accounts_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_family_members" ADD CONSTRAINT "card_family_members_removed_by_accounts_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_family_members_card" ON "card_family_members" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "card_family_members_account" ON "card_family_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_family_members_live" ON "card_family_members" USING btree ("card_id","account_id") WHERE "card_family_members"."removed_at" is null;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_gifted_from_account_id_accounts_id_fk" FOREIGN KEY ("gifted_from_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
UPDATE "card_type_rules" SET "family_slots" = 2 WHERE "card_type" = 'family-main';--> statement-breakpoint
UPDATE "card_type_rules" SET "giftable" = true WHERE "card_type" IN ('gift', 'gifted');
