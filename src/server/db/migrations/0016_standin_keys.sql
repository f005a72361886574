CREATE TABLE "pay_standin_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"keys" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
