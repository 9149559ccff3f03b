DROP INDEX "video_slide_syncs_media_id_sync_at_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "host_credentials_library_id_host_key" ON "host_credentials" USING btree ("library_id",lower("host"));--> statement-breakpoint
CREATE UNIQUE INDEX "video_slide_syncs_media_id_sync_at_key" ON "video_slide_syncs" USING btree ("media_id","sync_at");