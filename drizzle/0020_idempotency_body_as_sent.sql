-- The stored response of an idempotent request is kept as the JSON text that was sent: jsonb reorders an object's
-- keys (shorter first), so a replay answered the same data in another order than the first answer. Responses
-- stored before keep their jsonb text form (valid JSON, in the order they were replayed in until now).
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET DATA TYPE text USING "response_body"::text;
