CREATE TABLE "wechat_standin_openids" (
	"app_id" text NOT NULL,
	"open_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wechat_standin_openids_app_id_open_id_pk" PRIMARY KEY("app_id","open_id")
);
--> statement-breakpoint
-- the open ids the OAuth stand-in issued before it kept them (its codes live a day)
INSERT INTO "wechat_standin_openids" ("app_id", "open_id", "created_at")
SELECT DISTINCT "app_id", "open_id", now() FROM "wechat_standin_codes" ON CONFLICT DO NOTHING;
