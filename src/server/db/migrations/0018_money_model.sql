CREATE TABLE "friend_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"token" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "friend_invitations_expiry_check" CHECK ("friend_invitations"."expires_at" > "friend_invitations"."created_at"),
	CONSTRAINT "friend_invitations_state_check" CHECK ("state" in ('open', 'paid', 'expired', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "payment_parts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"state" text DEFAULT 'unpaid' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payment_parts_id_order" UNIQUE("id","order_id"),
	CONSTRAINT "payment_parts_kind_check" CHECK ("payment_parts"."kind" in ('deduction', 'share')),
	CONSTRAINT "payment_parts_amount_check" CHECK ("payment_parts"."amount_cents" > 0),
	CONSTRAINT "payment_parts_deduction_seq_check" CHECK (("payment_parts"."kind" = 'deduction') = ("payment_parts"."seq" = 0)),
	CONSTRAINT "payment_parts_state_check" CHECK ("state" in ('unpaid', 'paid', 'dropped', 'given_back'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"cause" text NOT NULL,
	"key" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"try_no" integer DEFAULT 1 NOT NULL,
	"out_refund_no" text,
	"provider_refund_id" text,
	"ledger_id" integer,
	"failure_code" text,
	"failure_message" text,
	"settled_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_cause_check" CHECK ("refunds"."cause" in ('order_cancelled', 'split_undone', 'unwanted_payment', 'amount_mismatch', 'order_refund')),
	CONSTRAINT "refunds_ledger_or_provider_check" CHECK ("refunds"."ledger_id" is null or "refunds"."out_refund_no" is null),
	CONSTRAINT "refunds_state_check" CHECK ("state" in ('pending', 'processing', 'failed', 'held', 'succeeded', 'settled'))
);
--> statement-breakpoint
DROP INDEX "payment_attempts_one_open";--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "part_id" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payer_account_id" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payer_open_id" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payer_nickname" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payer_avatar" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "invitation_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "part_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "ledger_id" integer;--> statement-breakpoint
-- decision 021, data: every existing order's money as parts, payments and refunds; orders, attempts,
-- payments and ledger rows change only by their new columns (history intact)
INSERT INTO "payment_parts" ("order_id", "seq", "kind", "amount_cents", "state", "created_at", "settled_at")
SELECT "id", 0, 'deduction', "balance_used_cents", CASE "state" WHEN 'cancelled' THEN 'given_back' ELSE 'paid' END,
       "created_at", coalesce("cancelled_at", "created_at")
FROM "orders" WHERE "balance_used_cents" > 0;--> statement-breakpoint
INSERT INTO "payment_parts" ("order_id", "seq", "kind", "amount_cents", "state", "created_at", "settled_at")
SELECT "id", 1, 'share', "amount_to_pay_cents",
       CASE WHEN "state" IN ('paid', 'fully_paid', 'refunding', 'refund_failed', 'refunded') THEN 'paid'
            WHEN "state" = 'cancelled' THEN 'dropped' ELSE 'unpaid' END,
       "created_at", coalesce("paid_at", "cancelled_at")
FROM "orders" WHERE "amount_to_pay_cents" > 0;--> statement-breakpoint
UPDATE "payment_attempts" a SET "part_id" = t."id", "payer_account_id" = o."account_id"
FROM "orders" o JOIN "payment_parts" t ON t."order_id" = o."id" AND t."seq" = 1
WHERE a."order_id" = o."id";--> statement-breakpoint
UPDATE "payments" p SET "part_id" = t."id" FROM "payment_parts" t WHERE t."order_id" = p."order_id" AND t."seq" = 1;--> statement-breakpoint
-- balance payments: an order's first 'order' ledger row is its checkout deduction (written at creation),
-- the next one its balance payment; a zero change never wrote a row
WITH l AS (SELECT "id", "order_id", -"change_cents" AS cents, "created_at",
                  row_number() OVER (PARTITION BY "order_id" ORDER BY "id") AS n
           FROM "balance_ledger" WHERE "reason" = 'order' AND "order_id" IS NOT NULL)
INSERT INTO "payments" ("order_id", "part_id", "provider", "amount_cents", "status", "source", "ledger_id", "created_at")
SELECT o."id", t."id", 'balance', l.cents, 'paid', 'balance', l."id", l."created_at"
FROM "orders" o JOIN "payment_parts" t ON t."order_id" = o."id"
JOIN l ON l."order_id" = o."id" AND l.n = CASE WHEN t."kind" = 'deduction' OR o."balance_used_cents" = 0 THEN 1 ELSE 2 END
WHERE t."kind" = 'deduction' OR (o."pay_method" = 'balance' AND t."state" = 'paid');--> statement-breakpoint
-- what a cancel gave back is the refund of the deduction
INSERT INTO "refunds" ("payment_id", "amount_cents", "cause", "key", "state", "ledger_id", "created_at", "settled_at")
SELECT p."id", l."change_cents", 'order_cancelled', 'cancel:' || o."id", 'succeeded', l."id", l."created_at", l."created_at"
FROM "orders" o JOIN "payment_parts" t ON t."order_id" = o."id" AND t."kind" = 'deduction'
JOIN "payments" p ON p."part_id" = t."id"
JOIN "balance_ledger" l ON l."order_id" = o."id" AND l."reason" = 'cancel'
WHERE o."state" = 'cancelled';--> statement-breakpoint
-- money staff were told to refund by hand (decision 013): held for them, so nothing is returned twice
INSERT INTO "refunds" ("payment_id", "amount_cents", "cause", "key", "state", "created_at")
SELECT "id", "amount_cents", CASE "status" WHEN 'mismatch' THEN 'amount_mismatch' ELSE 'unwanted_payment' END,
       'migrated:' || "id", 'held', now()
FROM "payments" WHERE "status" IN ('needs_refund', 'mismatch') AND "amount_cents" > 0;--> statement-breakpoint
-- trades still open (the mismatch bug's orders among them) are asked again under the new settle rules
INSERT INTO "jobs" ("kind", "payload", "run_at")
SELECT 'payment.query', jsonb_build_object('outTradeNo', "out_trade_no", 'provider', "provider", 'attempt', 1), now()
FROM "payment_attempts" WHERE "state" = 'open';--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM "payment_parts" t LEFT JOIN "payments" p ON p."part_id" = t."id" AND p."status" = 'paid'
             WHERE t."state" IN ('paid', 'given_back') AND (p."id" IS NULL OR p."amount_cents" <> t."amount_cents"))
  OR EXISTS (SELECT 1 FROM "payment_parts" t JOIN "payments" p ON p."part_id" = t."id" AND p."status" = 'paid'
             LEFT JOIN "refunds" r ON r."payment_id" = p."id" WHERE t."state" = 'given_back' AND r."id" IS NULL)
  THEN RAISE EXCEPTION '0018: a paid part without its payment, or a given-back part without its refund';
  END IF;
END $$;--> statement-breakpoint
-- any attempt or payment left without a part fails here rather than being guessed
ALTER TABLE "payment_attempts" ALTER COLUMN "part_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "part_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "friend_invitations" ADD CONSTRAINT "friend_invitations_part_fk" FOREIGN KEY ("part_id","order_id") REFERENCES "public"."payment_parts"("id","order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_parts" ADD CONSTRAINT "payment_parts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_ledger_id_balance_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."balance_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_settled_by_accounts_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "friend_invitations_token" ON "friend_invitations" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "friend_invitations_one_open" ON "friend_invitations" USING btree ("part_id") WHERE "friend_invitations"."state" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "friend_invitations_one_paid" ON "friend_invitations" USING btree ("part_id") WHERE "friend_invitations"."state" = 'paid';--> statement-breakpoint
CREATE INDEX "friend_invitations_order" ON "friend_invitations" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_parts_order_seq" ON "payment_parts" USING btree ("order_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_payment_key" ON "refunds" USING btree ("payment_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_out_refund_no" ON "refunds" USING btree ("out_refund_no");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_ledger" ON "refunds" USING btree ("ledger_id");--> statement-breakpoint
CREATE INDEX "refunds_attention" ON "refunds" USING btree ("state") WHERE "refunds"."state" in ('held', 'failed');--> statement-breakpoint
CREATE INDEX "refunds_payment" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_payer_account_id_accounts_id_fk" FOREIGN KEY ("payer_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_invitation_id_friend_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."friend_invitations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_part_fk" FOREIGN KEY ("part_id","order_id") REFERENCES "public"."payment_parts"("id","order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_ledger_id_balance_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."balance_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_part_fk" FOREIGN KEY ("part_id","order_id") REFERENCES "public"."payment_parts"("id","order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_ledger_order" ON "balance_ledger" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_ledger" ON "payments" USING btree ("ledger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_part_paid" ON "payments" USING btree ("part_id") WHERE "payments"."status" = 'paid';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_open" ON "payment_attempts" USING btree ("part_id") WHERE "payment_attempts"."state" = 'open';--> statement-breakpoint
ALTER TABLE "balance_ledger" ADD CONSTRAINT "balance_ledger_reason_check" CHECK ("balance_ledger"."reason" in ('topup', 'grant', 'order', 'split_part', 'cancel', 'refund'));--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_one_payer_check" CHECK (num_nonnulls("payment_attempts"."payer_account_id", "payment_attempts"."payer_open_id") = 1);--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_friend_check" CHECK (("payment_attempts"."invitation_id" is null) = ("payment_attempts"."payer_open_id" is null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('wechat', 'alipay', 'balance'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_source_check" CHECK ("payments"."source" in ('notify', 'query', 'balance'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_balance_ledger_check" CHECK (("payments"."provider" = 'balance') = ("payments"."ledger_id" is not null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_balance_paid_check" CHECK ("payments"."provider" <> 'balance' or ("payments"."status" = 'paid' and "payments"."attempt_id" is null and "payments"."provider_txn_id" is null));