ALTER TABLE "download_sessions" ADD COLUMN "client" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "download_sessions" ADD COLUMN "counted_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "download_sessions" DROP CONSTRAINT "download_sessions_transfer_id_browser_code_pk";--> statement-breakpoint
ALTER TABLE "download_sessions" ADD CONSTRAINT "download_sessions_transfer_id_browser_code_client_pk" PRIMARY KEY("transfer_id","browser_code","client");--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "access_epoch" integer DEFAULT 0 NOT NULL;
