-- Runtime state of read routing (src/db/read-your-writes.table.ts): unlogged, so neither replicated nor kept through a crash.
CREATE UNLOGGED TABLE "read_your_writes" (
	"token_id" integer PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
