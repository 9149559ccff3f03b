ALTER TABLE "enrollments" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "valid_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "max_uses" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "uses_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "school_product_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "price_overridden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "price_overridden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_options" ADD COLUMN "price_in_credits" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_school_product_id_school_products_id_fk" FOREIGN KEY ("school_product_id") REFERENCES "public"."school_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_order_id_school_product_id_key" ON "enrollments" USING btree ("order_id","school_product_id");--> statement-breakpoint
CREATE INDEX "coupons_school_product_id_idx" ON "coupons" USING btree ("school_product_id");--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_max_uses_positive" CHECK ("coupons"."max_uses" > 0);--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_uses_count_non_negative" CHECK ("coupons"."uses_count" >= 0);--> statement-breakpoint
ALTER TABLE "payment_options" ADD CONSTRAINT "payment_options_price_in_credits_non_negative" CHECK ("payment_options"."price_in_credits" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_amount_non_negative" CHECK ("payments"."refunded_amount" >= 0);