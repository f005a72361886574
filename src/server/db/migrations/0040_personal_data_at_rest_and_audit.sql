CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_account_id" integer NOT NULL,
	"action" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" integer,
	"reason" text,
	"client_ip" text NOT NULL,
	"request_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_info" DROP CONSTRAINT "person_info_id_number";--> statement-breakpoint
ALTER TABLE "card_transfers" ALTER COLUMN "id_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "person_info" ALTER COLUMN "id_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "member_photos" ADD COLUMN "nonce" "bytea";--> statement-breakpoint
ALTER TABLE "card_transfers" ADD COLUMN "id_number_cipher" "bytea";--> statement-breakpoint
ALTER TABLE "card_transfers" ADD COLUMN "id_number_wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "card_transfers" ADD COLUMN "id_number_key_id" text;--> statement-breakpoint
ALTER TABLE "card_transfers" ADD COLUMN "id_number_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "transfer_images" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "transfer_images" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "transfer_images" ADD COLUMN "nonce" "bytea";--> statement-breakpoint
ALTER TABLE "person_info" ADD COLUMN "id_number_cipher" "bytea";--> statement-breakpoint
ALTER TABLE "person_info" ADD COLUMN "id_number_wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "person_info" ADD COLUMN "id_number_key_id" text;--> statement-breakpoint
ALTER TABLE "person_info" ADD COLUMN "id_number_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_staff_account_id_accounts_id_fk" FOREIGN KEY ("staff_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_staff" ON "audit_log" USING btree ("staff_account_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
ALTER TABLE "card_transfers" ADD CONSTRAINT "card_transfers_id_number_kept" CHECK ("card_transfers"."id_number" is not null or "card_transfers"."id_number_key_id" is not null);--> statement-breakpoint
ALTER TABLE "person_info" ADD CONSTRAINT "person_info_id_number_kept" CHECK ("person_info"."id_number" is not null or "person_info"."id_number_key_id" is not null);