ALTER TABLE "schools" ADD COLUMN "time_zone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
CREATE INDEX "enrollments_school_id_created_at_idx" ON "enrollments" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_school_id_created_at_idx" ON "sessions" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_school_id_created_at_idx" ON "orders" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_school_id_created_at_idx" ON "payments" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "lesson_progress_school_id_updated_at_idx" ON "lesson_progress" USING btree ("school_id","updated_at");