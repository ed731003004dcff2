import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One message the sink took in: its SMTP envelope, the raw bytes and the parsed mail. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user that logged in. */
  user: string | undefined;
  raw: Buffer;
  parsed: ParsedMail;
}

/**
 * What the sink answers to a message: accept (250), refuse with an SMTP code (the mail is not kept), or keep
 * the mail and never answer, as a relay whose "250" is lost on the way back.
 */
export type Verdict = 'accept' | 'hang' | { code: number; message: string };

export interface SmtpSink {
  /** smtp://user:pass@127.0.0.1:port, to give to the mailer. */
  url: string;
  port: number;
  /** Messages accepted (or kept while hanging), in order. */
  messages: ReceivedMail[];
  /** Every DATA received, refused ones included. */
  dataCount(): number;
  /** Decides the answer to each next message (default: accept). */
  setVerdict(verdict: (mail: ReceivedMail, index: number) => Verdict): void;
  /** The first message (already there or still to come) that matches, or a rejection after `timeoutMs`. */
  waitFor(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A real SMTP server on a loopback port that requires AUTH (plain text: no STARTTLS in tests) and keeps what
 * it receives, parsed with mailparser.
 */
export async function startSmtpSink(options: { user?: string; password?: string } = {}): Promise<SmtpSink> {
  const user = options.user ?? 'ferry';
  const password = options.password ?? 'sink-password';
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const hanging: Array<() => void> = [];
  let verdict: (mail: ReceivedMail, index: number) => Verdict = () => 'accept';
  let received = 0;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      readAll(stream)
        .then(async (raw) => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw,
            parsed: await simpleParser(raw),
          };
          const answer = verdict(mail, received++);
          if (answer === 'hang') {
            messages.push(mail);
            hanging.push(() => callback(null));
          } else if (answer === 'accept') {
            messages.push(mail);
            callback(null);
          } else callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
          for (const wake of waiters) wake();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    messages,
    dataCount: () => received,
    setVerdict(next) {
      verdict = next;
    },
    waitFor(predicate = () => true, timeoutMs = 30_000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const release of hanging.splice(0)) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
