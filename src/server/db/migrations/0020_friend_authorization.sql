ALTER TABLE "openid_tickets" ADD COLUMN "scope" text DEFAULT 'base' NOT NULL;--> statement-breakpoint
ALTER TABLE "wechat_standin_codes" ADD COLUMN "scope" text DEFAULT 'snsapi_base' NOT NULL;--> statement-breakpoint
ALTER TABLE "wechat_standin_codes" ADD COLUMN "nickname" text;--> statement-breakpoint
ALTER TABLE "openid_tickets" ADD CONSTRAINT "openid_tickets_scope_check" CHECK ("openid_tickets"."scope" in ('base', 'userinfo'));