-- The renamed columns still hold the plaintext older versions stored: start-up encrypts them in place
-- right after this migration (src/db/data-migrations.ts), filling the hints.
ALTER TABLE "schools" RENAME COLUMN "crm_token" TO "crm_token_ciphertext";--> statement-breakpoint
ALTER TABLE "schools" RENAME COLUMN "video_access_token" TO "video_access_token_ciphertext";--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "crm_token_hint" text;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "video_access_token_hint" text;