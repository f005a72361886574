CREATE TABLE "dev_captcha_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_hash" text NOT NULL,
	"randstr" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "dev_captcha_tickets_ticket_hash_unique" UNIQUE("ticket_hash")
);
--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "kind" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
CREATE INDEX "login_failures_ip" ON "login_failures" USING btree ("ip","at");