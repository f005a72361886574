CREATE TABLE "account_closings" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"note" text,
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_closings_reason_kept" CHECK (("account_closings"."state" = 'refused') = ("account_closings"."reason" is not null)),
	CONSTRAINT "account_closings_state_check" CHECK ("state" in ('requested', 'closed', 'withdrawn', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_closings" ADD CONSTRAINT "account_closings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_closings" ADD CONSTRAINT "account_closings_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_closings_account" ON "account_closings" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "account_closings_one_open" ON "account_closings" USING btree ("account_id") WHERE "account_closings"."state" = 'requested';