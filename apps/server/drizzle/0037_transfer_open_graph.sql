ALTER TABLE "transfers" ADD COLUMN "og_title" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "og_description" text;