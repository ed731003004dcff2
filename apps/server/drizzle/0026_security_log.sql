CREATE TABLE "security_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" text,
	"actor_label" text,
	"token_id" text,
	"action" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"target" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "security_log_team_at_idx" ON "security_log" USING btree ("team_id","at");--> statement-breakpoint
CREATE INDEX "security_log_team_action_idx" ON "security_log" USING btree ("team_id","action","at");--> statement-breakpoint
CREATE INDEX "security_log_actor_idx" ON "security_log" USING btree ("team_id","actor_user_id","at");