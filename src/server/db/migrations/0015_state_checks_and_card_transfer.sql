ALTER TABLE "member_cards" ADD COLUMN "transferred_from_card_id" integer;--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_transferred_from_card_id_member_cards_id_fk" FOREIGN KEY ("transferred_from_card_id") REFERENCES "public"."member_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_state_check" CHECK ("state" in ('booked', 'queued', 'cancelled', 'queue_cancelled', 'checked_in', 'not_checked_in', 'expired'));--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_status_check" CHECK ("status" in ('open', 'cancelled'));--> statement-breakpoint
ALTER TABLE "member_cards" ADD CONSTRAINT "member_cards_status_check" CHECK ("status" in ('inactive', 'in_use', 'frozen', 'expired', 'transferred', 'invalid'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_state_check" CHECK ("state" in ('unpaid', 'paying', 'payment_failed', 'friend_paying', 'paid', 'fully_paid', 'refunding', 'refund_failed', 'cancelled', 'refunded'));--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_state_check" CHECK ("state" in ('open', 'failed', 'closed', 'paid'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("status" in ('paid', 'failed', 'mismatch', 'needs_refund'));--> statement-breakpoint
ALTER TABLE "member_coupons" ADD CONSTRAINT "member_coupons_state_check" CHECK ("state" in ('unused', 'used', 'expired', 'transferred'));--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_state_check" CHECK ("state" in ('reviewing', 'rejected', 'passed'));