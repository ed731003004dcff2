import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { waitFor } from './files.js';

/** One message the SMTP server took in, with its envelope recipients. */
export interface Mail {
  to: string[];
  parsed: ParsedMail;
}

export type MailSink = Awaited<ReturnType<typeof startMailSink>>;

/** A real SMTP server on loopback (no TLS, no AUTH) that keeps every message it accepts, parsed. */
export async function startMailSink() {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    closeTimeout: 100,
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            messages.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed });
            callback(null);
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Every message addressed to `address`. */
    to: (address: string) => messages.filter((m) => m.to.includes(address)),
    waitFor: (what: string, predicate: (m: Mail) => boolean, timeoutMs = 30_000) =>
      waitFor(() => messages.find(predicate), { timeoutMs, what }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The token of the sign-up confirmation link (`/verify-email?token=…`) mailed to `email`, read from the
 * embedded default's outbox (DATA_DIR/outbox/*.eml), waiting for it to be written.
 */
export async function verificationTokenFromOutbox(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  return waitFor(
    async () => {
      for (const name of await fs.readdir(outbox).catch(() => [] as string[])) {
        const mail = await simpleParser(await fs.readFile(path.join(outbox, name)));
        if (!mail.to || !JSON.stringify(mail.to).includes(email)) continue;
        const found = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
        if (found) return found[1];
      }
      return null;
    },
    { what: `the confirmation mail to ${email} in ${outbox}` },
  );
}
