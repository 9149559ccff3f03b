-- The rate limit's buckets are leased hundreds of times a second under load, and each lease
-- committed a WAL flush. Unlogged, a lease commits without waiting for the disk. What this gives up:
-- after a crash, or on a promoted replica, the table starts empty, and a missing bucket is a full
-- one (http/rate-limit.ts): clients get at most one bucket's worth again, never lose one.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
