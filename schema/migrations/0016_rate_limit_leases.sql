-- `granted` counts the tokens a lease took (http/rate-limit.ts); a refused charge took none.
ALTER TABLE "rate_limit_buckets" ALTER COLUMN "granted" SET DATA TYPE double precision USING (CASE WHEN "granted" THEN 1 ELSE 0 END);
