CREATE TABLE "graphql_persisted_queries" (
	"key" text PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
