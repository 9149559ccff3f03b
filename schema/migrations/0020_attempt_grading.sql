ALTER TABLE "activity_attempts" ADD COLUMN "graded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD COLUMN "graded_by_id" integer;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_graded_by_id_users_id_fk" FOREIGN KEY ("graded_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_attempts_awaiting_grading_idx" ON "activity_attempts" USING btree ("school_id","id") WHERE graded_at is null and jsonb_path_exists(answers, '$[*] ? (@.correct == null && @.text != null)');--> statement-breakpoint
CREATE INDEX "activity_attempts_graded_by_id_idx" ON "activity_attempts" USING btree ("graded_by_id");