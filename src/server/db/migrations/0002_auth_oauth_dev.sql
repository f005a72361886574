CREATE TABLE "dev_sms_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"id" serial PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"return_to" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wechat_standin_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"open_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "dev_sms_outbox_phone" ON "dev_sms_outbox" USING btree ("phone","id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_states_hash" ON "oauth_states" USING btree ("state_hash");