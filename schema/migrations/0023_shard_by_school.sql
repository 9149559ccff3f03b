-- Sharding by school (Citus, README): every key of a school-owned table holds school_id, and every foreign
-- key between school-owned tables is (school_id, x_id) -> (school_id, id). Ids are unchanged. Written from
-- drizzle-kit's output, ordered by hand: the old foreign keys go before the keys they lean on, link rows get
-- their school from their parent before it is required, and a composite `set null` empties its own column
-- alone (`SET NULL (x_id)`, PostgreSQL 15+), never school_id.
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_session_id_sessions_id_fk";--> statement-breakpoint
ALTER TABLE "password_resets" DROP CONSTRAINT "password_resets_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "activities" DROP CONSTRAINT "activities_exam_lesson_id_lessons_id_fk";--> statement-breakpoint
ALTER TABLE "exam_answers" DROP CONSTRAINT "exam_answers_activity_id_activities_id_fk";--> statement-breakpoint
ALTER TABLE "exam_answers" DROP CONSTRAINT "exam_answers_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "exam_answers" DROP CONSTRAINT "exam_answers_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "exam_question_answers" DROP CONSTRAINT "exam_question_answers_exam_question_id_exam_questions_id_fk";--> statement-breakpoint
ALTER TABLE "exam_question_answers" DROP CONSTRAINT "exam_question_answers_exam_answer_id_exam_answers_id_fk";--> statement-breakpoint
ALTER TABLE "exam_question_answers" DROP CONSTRAINT "exam_question_answers_exam_question_option_id_exam_question_options_id_fk";--> statement-breakpoint
ALTER TABLE "exam_question_assertions" DROP CONSTRAINT "exam_question_assertions_option_id_exam_question_options_id_fk";--> statement-breakpoint
ALTER TABLE "exam_question_options" DROP CONSTRAINT "exam_question_options_exam_question_id_exam_questions_id_fk";--> statement-breakpoint
ALTER TABLE "exam_questions" DROP CONSTRAINT "exam_questions_activity_id_activities_id_fk";--> statement-breakpoint
ALTER TABLE "collaborative_comments" DROP CONSTRAINT "collaborative_comments_collaborative_discussion_id_collaborative_discussions_id_fk";--> statement-breakpoint
ALTER TABLE "collaborative_comments" DROP CONSTRAINT "collaborative_comments_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "collaborative_discussions" DROP CONSTRAINT "collaborative_discussions_lesson_id_lessons_id_fk";--> statement-breakpoint
ALTER TABLE "course_classes" DROP CONSTRAINT "course_classes_course_id_courses_id_fk";--> statement-breakpoint
ALTER TABLE "course_module_links" DROP CONSTRAINT "course_module_links_course_id_courses_id_fk";--> statement-breakpoint
ALTER TABLE "course_module_links" DROP CONSTRAINT "course_module_links_course_module_id_course_modules_id_fk";--> statement-breakpoint
ALTER TABLE "lessons" DROP CONSTRAINT "lessons_course_module_id_course_modules_id_fk";--> statement-breakpoint
ALTER TABLE "lessons" DROP CONSTRAINT "lessons_media_id_media_id_fk";--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" DROP CONSTRAINT "enrollment_course_classes_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" DROP CONSTRAINT "enrollment_course_classes_course_class_id_course_classes_id_fk";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_registration_id_registrations_id_fk";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "export_chunks" DROP CONSTRAINT "export_chunks_export_id_exports_id_fk";--> statement-breakpoint
ALTER TABLE "extra_contents" DROP CONSTRAINT "extra_contents_media_id_media_id_fk";--> statement-breakpoint
ALTER TABLE "forum_answers" DROP CONSTRAINT "forum_answers_forum_question_id_forum_questions_id_fk";--> statement-breakpoint
ALTER TABLE "forum_answers" DROP CONSTRAINT "forum_answers_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "forum_questions" DROP CONSTRAINT "forum_questions_forum_section_id_forum_sections_id_fk";--> statement-breakpoint
ALTER TABLE "forum_questions" DROP CONSTRAINT "forum_questions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "forum_sections" DROP CONSTRAINT "forum_sections_forum_id_forums_id_fk";--> statement-breakpoint
ALTER TABLE "forum_sections" DROP CONSTRAINT "forum_sections_parent_forum_section_id_forum_sections_id_fk";--> statement-breakpoint
ALTER TABLE "refresh_tokens" DROP CONSTRAINT "refresh_tokens_session_id_sessions_id_fk";--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_parent_id_categories_id_fk";--> statement-breakpoint
ALTER TABLE "host_credentials" DROP CONSTRAINT "host_credentials_library_id_libraries_id_fk";--> statement-breakpoint
ALTER TABLE "library_resources" DROP CONSTRAINT "library_resources_library_id_libraries_id_fk";--> statement-breakpoint
ALTER TABLE "lesson_release_notices" DROP CONSTRAINT "lesson_release_notices_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "lesson_release_notices" DROP CONSTRAINT "lesson_release_notices_lesson_id_lessons_id_fk";--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" DROP CONSTRAINT "mail_unsubscribes_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "mails" DROP CONSTRAINT "mails_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "mails" DROP CONSTRAINT "mails_quotes_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_library_resource_id_library_resources_id_fk";--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_video_id_images_id_fk";--> statement-breakpoint
ALTER TABLE "video_slide_syncs" DROP CONSTRAINT "video_slide_syncs_media_id_media_id_fk";--> statement-breakpoint
ALTER TABLE "video_slide_syncs" DROP CONSTRAINT "video_slide_syncs_image_id_images_id_fk";--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "message_channels" DROP CONSTRAINT "message_channels_message_id_messages_id_fk";--> statement-breakpoint
ALTER TABLE "message_channels" DROP CONSTRAINT "message_channels_channel_id_channels_id_fk";--> statement-breakpoint
ALTER TABLE "message_owners" DROP CONSTRAINT "message_owners_message_id_messages_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_sender_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "gateway_notifications" DROP CONSTRAINT "gateway_notifications_gateway_credential_id_gateway_credentials_id_fk";--> statement-breakpoint
ALTER TABLE "gateway_notifications" DROP CONSTRAINT "gateway_notifications_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "gateway_signing_secrets" DROP CONSTRAINT "gateway_signing_secrets_gateway_credential_id_gateway_credentials_id_fk";--> statement-breakpoint
ALTER TABLE "coupon_tokens" DROP CONSTRAINT "coupon_tokens_coupon_id_coupons_id_fk";--> statement-breakpoint
ALTER TABLE "coupons" DROP CONSTRAINT "coupons_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_payment_option_id_payment_options_id_fk";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_coupon_token_id_coupon_tokens_id_fk";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_gateway_credential_id_gateway_credentials_id_fk";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_coupon_id_coupons_id_fk";--> statement-breakpoint
ALTER TABLE "payment_options" DROP CONSTRAINT "payment_options_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "path_courses" DROP CONSTRAINT "path_courses_path_id_paths_id_fk";--> statement-breakpoint
ALTER TABLE "path_courses" DROP CONSTRAINT "path_courses_course_id_courses_id_fk";--> statement-breakpoint
ALTER TABLE "personal_data_erasures" DROP CONSTRAINT "personal_data_erasures_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "activity_attempts" DROP CONSTRAINT "activity_attempts_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "activity_attempts" DROP CONSTRAINT "activity_attempts_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "activity_attempts" DROP CONSTRAINT "activity_attempts_activity_id_activities_id_fk";--> statement-breakpoint
ALTER TABLE "activity_attempts" DROP CONSTRAINT "activity_attempts_graded_by_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "certificates" DROP CONSTRAINT "certificates_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "certificates" DROP CONSTRAINT "certificates_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "certificates" DROP CONSTRAINT "certificates_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "content_openings" DROP CONSTRAINT "content_openings_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "content_openings" DROP CONSTRAINT "content_openings_lesson_id_lessons_id_fk";--> statement-breakpoint
ALTER TABLE "enrollment_expirations" DROP CONSTRAINT "enrollment_expirations_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "lesson_progress" DROP CONSTRAINT "lesson_progress_enrollment_id_enrollments_id_fk";--> statement-breakpoint
ALTER TABLE "lesson_progress" DROP CONSTRAINT "lesson_progress_student_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "lesson_progress" DROP CONSTRAINT "lesson_progress_lesson_id_lessons_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_courses" DROP CONSTRAINT "school_product_courses_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_courses" DROP CONSTRAINT "school_product_courses_course_id_courses_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_paths" DROP CONSTRAINT "school_product_paths_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_paths" DROP CONSTRAINT "school_product_paths_path_id_paths_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_categories" DROP CONSTRAINT "school_product_categories_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_categories" DROP CONSTRAINT "school_product_categories_category_id_categories_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" DROP CONSTRAINT "school_product_class_teachers_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" DROP CONSTRAINT "school_product_class_teachers_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" DROP CONSTRAINT "school_product_gallery_media_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" DROP CONSTRAINT "school_product_gallery_media_media_id_media_id_fk";--> statement-breakpoint
ALTER TABLE "school_product_topics" DROP CONSTRAINT "school_product_topics_school_product_id_school_products_id_fk";--> statement-breakpoint
ALTER TABLE "school_products" DROP CONSTRAINT "school_products_library_resource_id_library_resources_id_fk";--> statement-breakpoint
ALTER TABLE "addresses" DROP CONSTRAINT "addresses_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "integration_signing_secrets" DROP CONSTRAINT "integration_signing_secrets_integration_id_integrations_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_integration_id_integrations_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_domain_events_id_fk";--> statement-breakpoint
ALTER TABLE "password_resets" DROP CONSTRAINT "password_resets_token_digest_key";--> statement-breakpoint
ALTER TABLE "refresh_tokens" DROP CONSTRAINT "refresh_tokens_token_digest_key";--> statement-breakpoint
ALTER TABLE "lesson_release_notices" DROP CONSTRAINT "lesson_release_notices_enrollment_id_lesson_id_key";--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" DROP CONSTRAINT "mail_unsubscribes_user_id_key";--> statement-breakpoint
ALTER TABLE "mails" DROP CONSTRAINT "mails_message_id_key";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_integration_id_event_id_key";--> statement-breakpoint
ALTER TABLE "course_module_links" DROP CONSTRAINT "course_module_links_course_id_course_module_id_pk";--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" DROP CONSTRAINT "enrollment_course_classes_enrollment_id_course_class_id_pk";--> statement-breakpoint
ALTER TABLE "export_chunks" DROP CONSTRAINT "export_chunks_export_id_position_pk";--> statement-breakpoint
ALTER TABLE "message_channels" DROP CONSTRAINT "message_channels_message_id_channel_id_pk";--> statement-breakpoint
ALTER TABLE "path_courses" DROP CONSTRAINT "path_courses_path_id_course_id_pk";--> statement-breakpoint
ALTER TABLE "school_product_courses" DROP CONSTRAINT "school_product_courses_school_product_id_course_id_pk";--> statement-breakpoint
ALTER TABLE "school_product_paths" DROP CONSTRAINT "school_product_paths_school_product_id_path_id_pk";--> statement-breakpoint
ALTER TABLE "school_product_categories" DROP CONSTRAINT "school_product_categories_school_product_id_category_id_pk";--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" DROP CONSTRAINT "school_product_class_teachers_school_product_id_user_id_pk";--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" DROP CONSTRAINT "school_product_gallery_media_school_product_id_media_id_pk";--> statement-breakpoint
DROP INDEX "exam_question_assertions_option_id_side_key";--> statement-breakpoint
DROP INDEX "enrollments_order_id_school_product_id_key";--> statement-breakpoint
DROP INDEX "video_slide_syncs_media_id_sync_at_key";--> statement-breakpoint
DROP INDEX "gateway_notifications_gateway_credential_id_event_id_key";--> statement-breakpoint
DROP INDEX "personal_data_erasures_user_id_key";--> statement-breakpoint
DROP INDEX "activity_attempts_enrollment_id_activity_id_key_key";--> statement-breakpoint
DROP INDEX "certificates_enrollment_id_key";--> statement-breakpoint
DROP INDEX "certificates_code_key";--> statement-breakpoint
DROP INDEX "content_openings_enrollment_id_lesson_id_day_key";--> statement-breakpoint
DROP INDEX "enrollment_expirations_enrollment_id_available_until_key";--> statement-breakpoint
DROP INDEX "lesson_progress_enrollment_id_lesson_id_key";--> statement-breakpoint
DROP INDEX "sso_oidc_states_state_digest_key";--> statement-breakpoint
DROP INDEX "course_classes_course_id_main_key";--> statement-breakpoint
DROP INDEX "host_credentials_library_id_host_key";--> statement-breakpoint
ALTER TABLE "password_resets" DROP CONSTRAINT "password_resets_pkey";--> statement-breakpoint
ALTER TABLE "activities" DROP CONSTRAINT "activities_pkey";--> statement-breakpoint
ALTER TABLE "exam_answers" DROP CONSTRAINT "exam_answers_pkey";--> statement-breakpoint
ALTER TABLE "exam_question_answers" DROP CONSTRAINT "exam_question_answers_pkey";--> statement-breakpoint
ALTER TABLE "exam_question_assertions" DROP CONSTRAINT "exam_question_assertions_pkey";--> statement-breakpoint
ALTER TABLE "exam_question_options" DROP CONSTRAINT "exam_question_options_pkey";--> statement-breakpoint
ALTER TABLE "exam_questions" DROP CONSTRAINT "exam_questions_pkey";--> statement-breakpoint
ALTER TABLE "collaborative_comments" DROP CONSTRAINT "collaborative_comments_pkey";--> statement-breakpoint
ALTER TABLE "collaborative_discussions" DROP CONSTRAINT "collaborative_discussions_pkey";--> statement-breakpoint
ALTER TABLE "course_classes" DROP CONSTRAINT "course_classes_pkey";--> statement-breakpoint
ALTER TABLE "course_modules" DROP CONSTRAINT "course_modules_pkey";--> statement-breakpoint
ALTER TABLE "courses" DROP CONSTRAINT "courses_pkey";--> statement-breakpoint
ALTER TABLE "lessons" DROP CONSTRAINT "lessons_pkey";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_pkey";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_pkey";--> statement-breakpoint
ALTER TABLE "domain_events" DROP CONSTRAINT "domain_events_pkey";--> statement-breakpoint
ALTER TABLE "exports" DROP CONSTRAINT "exports_pkey";--> statement-breakpoint
ALTER TABLE "extra_contents" DROP CONSTRAINT "extra_contents_pkey";--> statement-breakpoint
ALTER TABLE "forum_answers" DROP CONSTRAINT "forum_answers_pkey";--> statement-breakpoint
ALTER TABLE "forum_questions" DROP CONSTRAINT "forum_questions_pkey";--> statement-breakpoint
ALTER TABLE "forum_sections" DROP CONSTRAINT "forum_sections_pkey";--> statement-breakpoint
ALTER TABLE "forums" DROP CONSTRAINT "forums_pkey";--> statement-breakpoint
ALTER TABLE "refresh_tokens" DROP CONSTRAINT "refresh_tokens_pkey";--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_pkey";--> statement-breakpoint
ALTER TABLE "integrations" DROP CONSTRAINT "integrations_pkey";--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_pkey";--> statement-breakpoint
ALTER TABLE "host_credentials" DROP CONSTRAINT "host_credentials_pkey";--> statement-breakpoint
ALTER TABLE "images" DROP CONSTRAINT "images_pkey";--> statement-breakpoint
ALTER TABLE "libraries" DROP CONSTRAINT "libraries_pkey";--> statement-breakpoint
ALTER TABLE "library_resources" DROP CONSTRAINT "library_resources_pkey";--> statement-breakpoint
ALTER TABLE "lesson_release_notices" DROP CONSTRAINT "lesson_release_notices_pkey";--> statement-breakpoint
ALTER TABLE "mail_settings" DROP CONSTRAINT "mail_settings_pkey";--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" DROP CONSTRAINT "mail_unsubscribes_pkey";--> statement-breakpoint
ALTER TABLE "mails" DROP CONSTRAINT "mails_pkey";--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_pkey";--> statement-breakpoint
ALTER TABLE "video_slide_syncs" DROP CONSTRAINT "video_slide_syncs_pkey";--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_pkey";--> statement-breakpoint
ALTER TABLE "message_owners" DROP CONSTRAINT "message_owners_pkey";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_pkey";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_pkey";--> statement-breakpoint
ALTER TABLE "billing_settings" DROP CONSTRAINT "billing_settings_pkey";--> statement-breakpoint
ALTER TABLE "gateway_notifications" DROP CONSTRAINT "gateway_notifications_pkey";--> statement-breakpoint
ALTER TABLE "gateway_signing_secrets" DROP CONSTRAINT "gateway_signing_secrets_pkey";--> statement-breakpoint
ALTER TABLE "coupon_tokens" DROP CONSTRAINT "coupon_tokens_pkey";--> statement-breakpoint
ALTER TABLE "coupons" DROP CONSTRAINT "coupons_pkey";--> statement-breakpoint
ALTER TABLE "gateway_credentials" DROP CONSTRAINT "gateway_credentials_pkey";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_pkey";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_pkey";--> statement-breakpoint
ALTER TABLE "payment_options" DROP CONSTRAINT "payment_options_pkey";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_pkey";--> statement-breakpoint
ALTER TABLE "paths" DROP CONSTRAINT "paths_pkey";--> statement-breakpoint
ALTER TABLE "personal_data_erasures" DROP CONSTRAINT "personal_data_erasures_pkey";--> statement-breakpoint
ALTER TABLE "activity_attempts" DROP CONSTRAINT "activity_attempts_pkey";--> statement-breakpoint
ALTER TABLE "certificates" DROP CONSTRAINT "certificates_pkey";--> statement-breakpoint
ALTER TABLE "content_openings" DROP CONSTRAINT "content_openings_pkey";--> statement-breakpoint
ALTER TABLE "enrollment_expirations" DROP CONSTRAINT "enrollment_expirations_pkey";--> statement-breakpoint
ALTER TABLE "lesson_progress" DROP CONSTRAINT "lesson_progress_pkey";--> statement-breakpoint
ALTER TABLE "school_product_topics" DROP CONSTRAINT "school_product_topics_pkey";--> statement-breakpoint
ALTER TABLE "school_products" DROP CONSTRAINT "school_products_pkey";--> statement-breakpoint
ALTER TABLE "school_status_changes" DROP CONSTRAINT "school_status_changes_pkey";--> statement-breakpoint
ALTER TABLE "sso_jwt_uses" DROP CONSTRAINT "sso_jwt_uses_pkey";--> statement-breakpoint
ALTER TABLE "sso_oidc_states" DROP CONSTRAINT "sso_oidc_states_pkey";--> statement-breakpoint
ALTER TABLE "sso_settings" DROP CONSTRAINT "sso_settings_pkey";--> statement-breakpoint
ALTER TABLE "addresses" DROP CONSTRAINT "addresses_pkey";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_pkey";--> statement-breakpoint
ALTER TABLE "integration_signing_secrets" DROP CONSTRAINT "integration_signing_secrets_pkey";--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_pkey";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey";--> statement-breakpoint
ALTER TABLE "course_module_links" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "course_module_links" SET "school_id" = p."school_id" FROM "courses" p WHERE p."id" = "course_module_links"."course_id";--> statement-breakpoint
ALTER TABLE "course_module_links" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "enrollment_course_classes" SET "school_id" = p."school_id" FROM "enrollments" p WHERE p."id" = "enrollment_course_classes"."enrollment_id";--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "export_chunks" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "export_chunks" SET "school_id" = p."school_id" FROM "exports" p WHERE p."id" = "export_chunks"."export_id";--> statement-breakpoint
ALTER TABLE "export_chunks" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "refresh_tokens" SET "school_id" = p."school_id" FROM "sessions" p WHERE p."id" = "refresh_tokens"."session_id";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "message_channels" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "message_channels" SET "school_id" = p."school_id" FROM "messages" p WHERE p."id" = "message_channels"."message_id";--> statement-breakpoint
ALTER TABLE "message_channels" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "message_owners" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "message_owners" SET "school_id" = p."school_id" FROM "messages" p WHERE p."id" = "message_owners"."message_id";--> statement-breakpoint
ALTER TABLE "message_owners" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "path_courses" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "path_courses" SET "school_id" = p."school_id" FROM "paths" p WHERE p."id" = "path_courses"."path_id";--> statement-breakpoint
ALTER TABLE "path_courses" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "school_product_courses" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "school_product_courses" SET "school_id" = p."school_id" FROM "school_products" p WHERE p."id" = "school_product_courses"."school_product_id";--> statement-breakpoint
ALTER TABLE "school_product_courses" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "school_product_paths" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "school_product_paths" SET "school_id" = p."school_id" FROM "school_products" p WHERE p."id" = "school_product_paths"."school_product_id";--> statement-breakpoint
ALTER TABLE "school_product_paths" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "school_product_categories" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "school_product_categories" SET "school_id" = p."school_id" FROM "school_products" p WHERE p."id" = "school_product_categories"."school_product_id";--> statement-breakpoint
ALTER TABLE "school_product_categories" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "school_product_class_teachers" SET "school_id" = p."school_id" FROM "school_products" p WHERE p."id" = "school_product_class_teachers"."school_product_id";--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ADD COLUMN "school_id" integer;--> statement-breakpoint
UPDATE "school_product_gallery_media" SET "school_id" = p."school_id" FROM "school_products" p WHERE p."id" = "school_product_gallery_media"."school_product_id";--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
-- A link to another school's row (which no reader ever showed) cannot hold under the co-located keys: dropped.
DELETE FROM "course_module_links" l WHERE NOT EXISTS (SELECT FROM "course_modules" c WHERE c."id" = l."course_module_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "enrollment_course_classes" l WHERE NOT EXISTS (SELECT FROM "course_classes" c WHERE c."id" = l."course_class_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "message_channels" l WHERE NOT EXISTS (SELECT FROM "channels" c WHERE c."id" = l."channel_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "path_courses" l WHERE NOT EXISTS (SELECT FROM "courses" c WHERE c."id" = l."course_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "school_product_courses" l WHERE NOT EXISTS (SELECT FROM "courses" c WHERE c."id" = l."course_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "school_product_paths" l WHERE NOT EXISTS (SELECT FROM "paths" c WHERE c."id" = l."path_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "school_product_categories" l WHERE NOT EXISTS (SELECT FROM "categories" c WHERE c."id" = l."category_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "school_product_class_teachers" l WHERE NOT EXISTS (SELECT FROM "users" c WHERE c."id" = l."user_id" AND c."school_id" = l."school_id");--> statement-breakpoint
DELETE FROM "school_product_gallery_media" l WHERE NOT EXISTS (SELECT FROM "media" c WHERE c."id" = l."media_id" AND c."school_id" = l."school_id");--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "exam_question_answers" ADD CONSTRAINT "exam_question_answers_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "exam_question_assertions" ADD CONSTRAINT "exam_question_assertions_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "exam_question_options" ADD CONSTRAINT "exam_question_options_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "exam_questions" ADD CONSTRAINT "exam_questions_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "collaborative_comments" ADD CONSTRAINT "collaborative_comments_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "collaborative_discussions" ADD CONSTRAINT "collaborative_discussions_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "course_classes" ADD CONSTRAINT "course_classes_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "course_module_links" ADD CONSTRAINT "course_module_links_pkey" PRIMARY KEY("course_id","course_module_id","school_id");--> statement-breakpoint
ALTER TABLE "course_modules" ADD CONSTRAINT "course_modules_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ADD CONSTRAINT "enrollment_course_classes_pkey" PRIMARY KEY("enrollment_id","course_class_id","school_id");--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "export_chunks" ADD CONSTRAINT "export_chunks_pkey" PRIMARY KEY("export_id","position","school_id");--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "extra_contents" ADD CONSTRAINT "extra_contents_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "forum_answers" ADD CONSTRAINT "forum_answers_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "forum_questions" ADD CONSTRAINT "forum_questions_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "forum_sections" ADD CONSTRAINT "forum_sections_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "forums" ADD CONSTRAINT "forums_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "host_credentials" ADD CONSTRAINT "host_credentials_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "libraries" ADD CONSTRAINT "libraries_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "library_resources" ADD CONSTRAINT "library_resources_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "lesson_release_notices" ADD CONSTRAINT "lesson_release_notices_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "mail_settings" ADD CONSTRAINT "mail_settings_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "video_slide_syncs" ADD CONSTRAINT "video_slide_syncs_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "message_channels" ADD CONSTRAINT "message_channels_pkey" PRIMARY KEY("message_id","channel_id","school_id");--> statement-breakpoint
ALTER TABLE "message_owners" ADD CONSTRAINT "message_owners_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "gateway_notifications" ADD CONSTRAINT "gateway_notifications_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "gateway_signing_secrets" ADD CONSTRAINT "gateway_signing_secrets_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "coupon_tokens" ADD CONSTRAINT "coupon_tokens_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "gateway_credentials" ADD CONSTRAINT "gateway_credentials_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "payment_options" ADD CONSTRAINT "payment_options_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "path_courses" ADD CONSTRAINT "path_courses_pkey" PRIMARY KEY("path_id","course_id","school_id");--> statement-breakpoint
ALTER TABLE "paths" ADD CONSTRAINT "paths_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "personal_data_erasures" ADD CONSTRAINT "personal_data_erasures_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "content_openings" ADD CONSTRAINT "content_openings_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "enrollment_expirations" ADD CONSTRAINT "enrollment_expirations_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "lesson_progress" ADD CONSTRAINT "lesson_progress_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_courses" ADD CONSTRAINT "school_product_courses_pkey" PRIMARY KEY("school_product_id","course_id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_paths" ADD CONSTRAINT "school_product_paths_pkey" PRIMARY KEY("school_product_id","path_id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_categories" ADD CONSTRAINT "school_product_categories_pkey" PRIMARY KEY("school_product_id","category_id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ADD CONSTRAINT "school_product_class_teachers_pkey" PRIMARY KEY("school_product_id","user_id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ADD CONSTRAINT "school_product_gallery_media_pkey" PRIMARY KEY("school_product_id","media_id","school_id");--> statement-breakpoint
ALTER TABLE "school_product_topics" ADD CONSTRAINT "school_product_topics_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "school_products" ADD CONSTRAINT "school_products_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "school_status_changes" ADD CONSTRAINT "school_status_changes_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "sso_jwt_uses" ADD CONSTRAINT "sso_jwt_uses_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "sso_oidc_states" ADD CONSTRAINT "sso_oidc_states_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "sso_settings" ADD CONSTRAINT "sso_settings_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "integration_signing_secrets" ADD CONSTRAINT "integration_signing_secrets_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY("id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_digest_school_id_key" ON "password_resets" USING btree ("token_digest","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_question_assertions_option_id_side_school_id_key" ON "exam_question_assertions" USING btree ("option_id","side","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_order_id_school_product_id_school_id_key" ON "enrollments" USING btree ("order_id","school_product_id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_token_digest_school_id_key" ON "refresh_tokens" USING btree ("token_digest","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_slide_syncs_media_id_sync_at_school_id_key" ON "video_slide_syncs" USING btree ("media_id","sync_at","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gateway_notifications_gateway_credential_id_event_id_school_id_key" ON "gateway_notifications" USING btree ("gateway_credential_id","event_id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "personal_data_erasures_user_id_school_id_key" ON "personal_data_erasures" USING btree ("user_id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_attempts_enrollment_id_activity_id_key_school_id_key" ON "activity_attempts" USING btree ("enrollment_id","activity_id","key","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_enrollment_id_school_id_key" ON "certificates" USING btree ("enrollment_id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_code_school_id_key" ON "certificates" USING btree ("code","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_openings_enrollment_id_lesson_id_day_school_id_key" ON "content_openings" USING btree ("enrollment_id","lesson_id","day","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollment_expirations_enrollment_id_available_until_school_id_key" ON "enrollment_expirations" USING btree ("enrollment_id","available_until","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_progress_enrollment_id_lesson_id_school_id_key" ON "lesson_progress" USING btree ("enrollment_id","lesson_id","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_oidc_states_state_digest_school_id_key" ON "sso_oidc_states" USING btree ("state_digest","school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "course_classes_course_id_main_key" ON "course_classes" USING btree ("course_id","school_id") WHERE "course_classes"."main";--> statement-breakpoint
CREATE UNIQUE INDEX "host_credentials_library_id_host_key" ON "host_credentials" USING btree ("library_id",lower("host"),"school_id");--> statement-breakpoint
ALTER TABLE "lesson_release_notices" ADD CONSTRAINT "lesson_release_notices_enrollment_id_lesson_id_key" UNIQUE("enrollment_id","lesson_id","school_id");--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_user_id_key" UNIQUE("user_id","school_id");--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_message_id_key" UNIQUE("message_id","school_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_integration_id_event_id_key" UNIQUE("integration_id","event_id","school_id");--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_exam_lesson_id_fk" FOREIGN KEY ("school_id","exam_lesson_id") REFERENCES "public"."lessons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_activity_id_fk" FOREIGN KEY ("school_id","activity_id") REFERENCES "public"."activities"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_question_answers" ADD CONSTRAINT "exam_question_answers_exam_question_id_fk" FOREIGN KEY ("school_id","exam_question_id") REFERENCES "public"."exam_questions"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_question_answers" ADD CONSTRAINT "exam_question_answers_exam_answer_id_fk" FOREIGN KEY ("school_id","exam_answer_id") REFERENCES "public"."exam_answers"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_question_answers" ADD CONSTRAINT "exam_question_answers_exam_question_option_id_fk" FOREIGN KEY ("school_id","exam_question_option_id") REFERENCES "public"."exam_question_options"("school_id","id") ON DELETE SET NULL ("exam_question_option_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_question_assertions" ADD CONSTRAINT "exam_question_assertions_option_id_fk" FOREIGN KEY ("school_id","option_id") REFERENCES "public"."exam_question_options"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_question_options" ADD CONSTRAINT "exam_question_options_exam_question_id_fk" FOREIGN KEY ("school_id","exam_question_id") REFERENCES "public"."exam_questions"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_questions" ADD CONSTRAINT "exam_questions_activity_id_fk" FOREIGN KEY ("school_id","activity_id") REFERENCES "public"."activities"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborative_comments" ADD CONSTRAINT "collaborative_comments_collaborative_discussion_id_fk" FOREIGN KEY ("school_id","collaborative_discussion_id") REFERENCES "public"."collaborative_discussions"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborative_comments" ADD CONSTRAINT "collaborative_comments_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborative_discussions" ADD CONSTRAINT "collaborative_discussions_lesson_id_fk" FOREIGN KEY ("school_id","lesson_id") REFERENCES "public"."lessons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_classes" ADD CONSTRAINT "course_classes_course_id_fk" FOREIGN KEY ("school_id","course_id") REFERENCES "public"."courses"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_module_links" ADD CONSTRAINT "course_module_links_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_module_links" ADD CONSTRAINT "course_module_links_course_id_fk" FOREIGN KEY ("school_id","course_id") REFERENCES "public"."courses"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_module_links" ADD CONSTRAINT "course_module_links_course_module_id_fk" FOREIGN KEY ("school_id","course_module_id") REFERENCES "public"."course_modules"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_course_module_id_fk" FOREIGN KEY ("school_id","course_module_id") REFERENCES "public"."course_modules"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_media_id_fk" FOREIGN KEY ("school_id","media_id") REFERENCES "public"."media"("school_id","id") ON DELETE SET NULL ("media_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ADD CONSTRAINT "enrollment_course_classes_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ADD CONSTRAINT "enrollment_course_classes_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_course_classes" ADD CONSTRAINT "enrollment_course_classes_course_class_id_fk" FOREIGN KEY ("school_id","course_class_id") REFERENCES "public"."course_classes"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_registration_id_fk" FOREIGN KEY ("school_id","registration_id") REFERENCES "public"."registrations"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_order_id_fk" FOREIGN KEY ("school_id","order_id") REFERENCES "public"."orders"("school_id","id") ON DELETE SET NULL ("order_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_chunks" ADD CONSTRAINT "export_chunks_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_chunks" ADD CONSTRAINT "export_chunks_export_id_fk" FOREIGN KEY ("school_id","export_id") REFERENCES "public"."exports"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_contents" ADD CONSTRAINT "extra_contents_media_id_fk" FOREIGN KEY ("school_id","media_id") REFERENCES "public"."media"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_answers" ADD CONSTRAINT "forum_answers_forum_question_id_fk" FOREIGN KEY ("school_id","forum_question_id") REFERENCES "public"."forum_questions"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_answers" ADD CONSTRAINT "forum_answers_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE SET NULL ("user_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_questions" ADD CONSTRAINT "forum_questions_forum_section_id_fk" FOREIGN KEY ("school_id","forum_section_id") REFERENCES "public"."forum_sections"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_questions" ADD CONSTRAINT "forum_questions_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE SET NULL ("user_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_sections" ADD CONSTRAINT "forum_sections_forum_id_fk" FOREIGN KEY ("school_id","forum_id") REFERENCES "public"."forums"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_sections" ADD CONSTRAINT "forum_sections_parent_forum_section_id_fk" FOREIGN KEY ("school_id","parent_forum_section_id") REFERENCES "public"."forum_sections"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_fk" FOREIGN KEY ("school_id","session_id") REFERENCES "public"."sessions"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fk" FOREIGN KEY ("school_id","parent_id") REFERENCES "public"."categories"("school_id","id") ON DELETE SET NULL ("parent_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_credentials" ADD CONSTRAINT "host_credentials_library_id_fk" FOREIGN KEY ("school_id","library_id") REFERENCES "public"."libraries"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_resources" ADD CONSTRAINT "library_resources_library_id_fk" FOREIGN KEY ("school_id","library_id") REFERENCES "public"."libraries"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_release_notices" ADD CONSTRAINT "lesson_release_notices_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_release_notices" ADD CONSTRAINT "lesson_release_notices_lesson_id_fk" FOREIGN KEY ("school_id","lesson_id") REFERENCES "public"."lessons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_quotes_user_id_fk" FOREIGN KEY ("school_id","quotes_user_id") REFERENCES "public"."users"("school_id","id") ON DELETE SET NULL ("quotes_user_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_library_resource_id_fk" FOREIGN KEY ("school_id","library_resource_id") REFERENCES "public"."library_resources"("school_id","id") ON DELETE SET NULL ("library_resource_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_video_id_fk" FOREIGN KEY ("school_id","video_id") REFERENCES "public"."images"("school_id","id") ON DELETE SET NULL ("video_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_slide_syncs" ADD CONSTRAINT "video_slide_syncs_media_id_fk" FOREIGN KEY ("school_id","media_id") REFERENCES "public"."media"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_slide_syncs" ADD CONSTRAINT "video_slide_syncs_image_id_fk" FOREIGN KEY ("school_id","image_id") REFERENCES "public"."images"("school_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_channels" ADD CONSTRAINT "message_channels_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_channels" ADD CONSTRAINT "message_channels_message_id_fk" FOREIGN KEY ("school_id","message_id") REFERENCES "public"."messages"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_channels" ADD CONSTRAINT "message_channels_channel_id_fk" FOREIGN KEY ("school_id","channel_id") REFERENCES "public"."channels"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_owners" ADD CONSTRAINT "message_owners_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_owners" ADD CONSTRAINT "message_owners_message_id_fk" FOREIGN KEY ("school_id","message_id") REFERENCES "public"."messages"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_fk" FOREIGN KEY ("school_id","sender_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_notifications" ADD CONSTRAINT "gateway_notifications_gateway_credential_id_fk" FOREIGN KEY ("school_id","gateway_credential_id") REFERENCES "public"."gateway_credentials"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_notifications" ADD CONSTRAINT "gateway_notifications_payment_id_fk" FOREIGN KEY ("school_id","payment_id") REFERENCES "public"."payments"("school_id","id") ON DELETE SET NULL ("payment_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_signing_secrets" ADD CONSTRAINT "gateway_signing_secrets_gateway_credential_id_fk" FOREIGN KEY ("school_id","gateway_credential_id") REFERENCES "public"."gateway_credentials"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_tokens" ADD CONSTRAINT "coupon_tokens_coupon_id_fk" FOREIGN KEY ("school_id","coupon_id") REFERENCES "public"."coupons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_fk" FOREIGN KEY ("school_id","order_id") REFERENCES "public"."orders"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_fk" FOREIGN KEY ("school_id","order_id") REFERENCES "public"."orders"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_payment_option_id_fk" FOREIGN KEY ("school_id","payment_option_id") REFERENCES "public"."payment_options"("school_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_coupon_token_id_fk" FOREIGN KEY ("school_id","coupon_token_id") REFERENCES "public"."coupon_tokens"("school_id","id") ON DELETE SET NULL ("coupon_token_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gateway_credential_id_fk" FOREIGN KEY ("school_id","gateway_credential_id") REFERENCES "public"."gateway_credentials"("school_id","id") ON DELETE SET NULL ("gateway_credential_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_fk" FOREIGN KEY ("school_id","coupon_id") REFERENCES "public"."coupons"("school_id","id") ON DELETE SET NULL ("coupon_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_options" ADD CONSTRAINT "payment_options_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_fk" FOREIGN KEY ("school_id","invoice_id") REFERENCES "public"."invoices"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "path_courses" ADD CONSTRAINT "path_courses_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "path_courses" ADD CONSTRAINT "path_courses_path_id_fk" FOREIGN KEY ("school_id","path_id") REFERENCES "public"."paths"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "path_courses" ADD CONSTRAINT "path_courses_course_id_fk" FOREIGN KEY ("school_id","course_id") REFERENCES "public"."courses"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_data_erasures" ADD CONSTRAINT "personal_data_erasures_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_activity_id_fk" FOREIGN KEY ("school_id","activity_id") REFERENCES "public"."activities"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_attempts" ADD CONSTRAINT "activity_attempts_graded_by_id_fk" FOREIGN KEY ("school_id","graded_by_id") REFERENCES "public"."users"("school_id","id") ON DELETE SET NULL ("graded_by_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_openings" ADD CONSTRAINT "content_openings_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_openings" ADD CONSTRAINT "content_openings_lesson_id_fk" FOREIGN KEY ("school_id","lesson_id") REFERENCES "public"."lessons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_expirations" ADD CONSTRAINT "enrollment_expirations_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_progress" ADD CONSTRAINT "lesson_progress_enrollment_id_fk" FOREIGN KEY ("school_id","enrollment_id") REFERENCES "public"."enrollments"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_progress" ADD CONSTRAINT "lesson_progress_student_id_fk" FOREIGN KEY ("school_id","student_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_progress" ADD CONSTRAINT "lesson_progress_lesson_id_fk" FOREIGN KEY ("school_id","lesson_id") REFERENCES "public"."lessons"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_courses" ADD CONSTRAINT "school_product_courses_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_courses" ADD CONSTRAINT "school_product_courses_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_courses" ADD CONSTRAINT "school_product_courses_course_id_fk" FOREIGN KEY ("school_id","course_id") REFERENCES "public"."courses"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_paths" ADD CONSTRAINT "school_product_paths_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_paths" ADD CONSTRAINT "school_product_paths_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_paths" ADD CONSTRAINT "school_product_paths_path_id_fk" FOREIGN KEY ("school_id","path_id") REFERENCES "public"."paths"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_categories" ADD CONSTRAINT "school_product_categories_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_categories" ADD CONSTRAINT "school_product_categories_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_categories" ADD CONSTRAINT "school_product_categories_category_id_fk" FOREIGN KEY ("school_id","category_id") REFERENCES "public"."categories"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ADD CONSTRAINT "school_product_class_teachers_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ADD CONSTRAINT "school_product_class_teachers_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_class_teachers" ADD CONSTRAINT "school_product_class_teachers_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ADD CONSTRAINT "school_product_gallery_media_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ADD CONSTRAINT "school_product_gallery_media_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_gallery_media" ADD CONSTRAINT "school_product_gallery_media_media_id_fk" FOREIGN KEY ("school_id","media_id") REFERENCES "public"."media"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_product_topics" ADD CONSTRAINT "school_product_topics_school_product_id_fk" FOREIGN KEY ("school_id","school_product_id") REFERENCES "public"."school_products"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_products" ADD CONSTRAINT "school_products_library_resource_id_fk" FOREIGN KEY ("school_id","library_resource_id") REFERENCES "public"."library_resources"("school_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_fk" FOREIGN KEY ("school_id","user_id") REFERENCES "public"."users"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_signing_secrets" ADD CONSTRAINT "integration_signing_secrets_integration_id_fk" FOREIGN KEY ("school_id","integration_id") REFERENCES "public"."integrations"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fk" FOREIGN KEY ("school_id","delivery_id") REFERENCES "public"."webhook_deliveries"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_integration_id_fk" FOREIGN KEY ("school_id","integration_id") REFERENCES "public"."integrations"("school_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fk" FOREIGN KEY ("school_id","event_id") REFERENCES "public"."domain_events"("school_id","id") ON DELETE cascade ON UPDATE no action;
