CREATE TABLE "card_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"from_account_id" integer NOT NULL,
	"to_account_id" integer NOT NULL,
	"recipient_name" text NOT NULL,
	"id_number" text NOT NULL,
	"id_photo_id" integer NOT NULL,
	"photo_id" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"new_card_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "card_transfers_not_to_self" CHECK ("card_transfers"."from_account_id" <> "card_transfers"."to_account_id"),
	CONSTRAINT "card_transfers_approved_card" CHECK (("card_transfers"."state" = 'approved') = ("card_transfers"."new_card_id" is not null)),
	CONSTRAINT "card_transfers_state_check" CHECK ("state" in ('pending', 'reviewing', 'approved', 'rejected', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "transfer_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "group_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_card_id_member_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_from_account_id_accounts_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_to_account_id_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_id_photo_id_transfer_images_id_fk" FOREIGN KEY ("id_photo_id") REFERENCES "public"."transfer_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_photo_id_transfer_images_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."transfer_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_reviewed_by_accounts_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_new_card_id_member_cards_id_fk" FOREIGN KEY ("new_card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_images" ADD CONSTRAINT "transfer_images_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_transfers_one_open" ON "card_transfers" USING btree ("card_id") WHERE "card_transfers"."state" in ('pending', 'reviewing');--> statement-breakpoint
CREATE INDEX "card_transfers_from" ON "card_transfers" USING btree ("from_account_id","id");--> statement-breakpoint
CREATE INDEX "card_transfers_open" ON "card_transfers" USING btree ("id") WHERE "card_transfers"."state" in ('pending', 'reviewing');--> statement-breakpoint
CREATE INDEX "transfer_images_account" ON "transfer_images" USING btree ("account_id");