CREATE TABLE "security_log_settings" (
	"team_id" text PRIMARY KEY NOT NULL,
	"retention_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
