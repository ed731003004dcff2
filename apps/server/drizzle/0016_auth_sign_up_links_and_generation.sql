-- Accounts (issue 18): a verification link carries its own sign-up (what it activates), and users count the
-- password changes, resets and "sign out everywhere" that void the id tokens minted before them.
ALTER TABLE "auth_links" ADD COLUMN "sign_up" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sign_in_generation" integer DEFAULT 0 NOT NULL;
