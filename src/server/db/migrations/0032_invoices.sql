CREATE TABLE "invoice_orders" (
	"invoice_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "invoice_orders_invoice_id_order_id_pk" PRIMARY KEY("invoice_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"club_id" integer,
	"state" text DEFAULT 'requested' NOT NULL,
	"title" text NOT NULL,
	"tax_number" text NOT NULL,
	"address" text NOT NULL,
	"phone" text,
	"bank_name" text,
	"bank_account" text,
	"total_cents" integer NOT NULL,
	"number" text,
	"pdf" "bytea",
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invoices_issued_kept" CHECK (("invoices"."state" in ('issued', 'voided')) = ("invoices"."number" is not null and "invoices"."pdf" is not null)),
	CONSTRAINT "invoices_reason_kept" CHECK (("invoices"."state" = 'refused') = ("invoices"."reason" is not null)),
	CONSTRAINT "invoices_total" CHECK ("invoices"."total_cents" >= 0),
	CONSTRAINT "invoices_state_check" CHECK ("state" in ('requested', 'issued', 'refused', 'voided'))
);
--> statement-breakpoint
ALTER TABLE "invoice_orders" ADD CONSTRAINT "invoice_orders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_orders" ADD CONSTRAINT "invoice_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_orders_held" ON "invoice_orders" USING btree ("order_id") WHERE "invoice_orders"."released_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_account" ON "invoices" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "invoices_requested" ON "invoices" USING btree ("id") WHERE "invoices"."state" = 'requested';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number" ON "invoices" USING btree ("number");