CREATE TABLE "card_type_rules" (
	"card_type" text PRIMARY KEY NOT NULL,
	"max_extensions" integer DEFAULT 0 NOT NULL,
	"max_extension_days" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "frozen_from" date;--> statement-breakpoint
ALTER TABLE "member_cards" ADD COLUMN "frozen_until" date;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_freeze_dates" CHECK (("member_cards"."frozen_from" is null) = ("member_cards"."frozen_until" is null) and ("member_cards"."frozen_from" is null or "member_cards"."frozen_until" >= "member_cards"."frozen_from"));