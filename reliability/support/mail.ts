import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One mail of the embedded default's outbox (DATA_DIR/outbox/*.eml), parsed. */
export interface OutboxMail {
  file: string;
  to: string[];
  subject: string;
  text: string;
  /** The RFC 8058 one-click URL of its List-Unsubscribe header, if any. */
  unsubscribeUrl: string | null;
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((a) => a.value)
    .map((a) => (a.address ?? '').toLowerCase());

/** Every mail in a data dir's outbox, oldest first (the file names start with a timestamp). */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(await fs.readFile(path.join(dir, file)));
      const list = parsed.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
      return {
        file,
        to: addresses(parsed.to),
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        unsubscribeUrl: list?.unsubscribe?.url ?? null,
      };
    }),
  );
}

/** The first outbox mail that matches, polling until `timeoutMs`. */
export async function waitForOutbox(
  dataDir: string,
  predicate: (mail: OutboxMail) => boolean,
  timeoutMs = 20_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(dataDir)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such mail in ${dataDir}/outbox within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A real SMTP relay on a loopback port (smtp-server, AUTH PLAIN/LOGIN without TLS) that keeps every message it
 * was given, for the mail crash tests. Unlike apps/server/src/test/smtp-sink.ts it can take its time before
 * answering (to widen the window a kill lands in) and counts a message as soon as its DATA is complete: from
 * that moment a real relay has it and delivers it, whether or not its "250" ever reaches the sender.
 */

/** What the relay answers to one message. */
export type Answer =
  /** 250, after `delayMs` (the sink's default delay unless given). */
  | { accept: true; delayMs?: number }
  /** Keeps the message and never answers (until the sink closes): a "250" lost on the way back. */
  | 'hang'
  /** Refuses it with this SMTP code: the message is not delivered. */
  | { code: number; message: string };

export interface RelayedMail {
  /** Order of arrival, from 0. */
  index: number;
  /** When its DATA was complete (Date.now()). */
  at: number;
  from: string;
  /** SMTP envelope recipients. */
  to: string[];
  subject: string;
  messageId: string;
  /** What the relay did with it: `pending` while a delayed "250" is still to be written. */
  state: 'pending' | 'accepted' | 'hung' | 'refused';
}

export interface RelaySink {
  /** smtp://user:pass@127.0.0.1:port for SMTP_URL. */
  url: string;
  /** Every message whose DATA was complete, in order (refused ones included, marked so). */
  received: RelayedMail[];
  /** Messages that reached `address` (envelope) and were not refused: what its mailbox ends up holding. */
  delivered(address: string): RelayedMail[];
  /** Decides each next answer (default: accept after the default delay). */
  answer(decide: (mail: RelayedMail) => Answer): void;
  /** Resolves once `predicate` holds for the received messages (checked at each arrival), else rejects. */
  until(predicate: (received: RelayedMail[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRelaySink(options: { delayMs?: number } = {}): Promise<RelaySink> {
  const user = 'ferry';
  const password = 'relay-password';
  const received: RelayedMail[] = [];
  const waiters = new Set<() => void>();
  const hanging: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();
  let decide: (mail: RelayedMail) => Answer = () => ({ accept: true });

  /** smtp-server callbacks after the client went away (a killed Ferry) must not throw into the test. */
  const safely = (callback: (err?: Error | null) => void, err?: Error | null) => {
    try {
      callback(err);
    } catch {}
  };

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
          // A message cut before its final "." never reaches this point: smtp-server drops it.
          const parsed = await simpleParser(raw);
          const mail: RelayedMail = {
            index: received.length,
            at: Date.now(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            messageId: parsed.messageId ?? '',
            state: 'pending',
          };
          received.push(mail);
          const answer = decide(mail);
          if (answer === 'hang') {
            mail.state = 'hung';
            hanging.push(() => safely(callback, null));
          } else if ('accept' in answer) {
            const timer = setTimeout(
              () => {
                timers.delete(timer);
                mail.state = 'accepted';
                safely(callback, null);
              },
              answer.delayMs ?? options.delayMs ?? 0,
            );
            timers.add(timer);
          } else {
            mail.state = 'refused';
            safely(callback, Object.assign(new Error(answer.message), { responseCode: answer.code }));
          }
          for (const wake of [...waiters]) wake();
        })
        .catch((err: Error) => safely(callback, err));
    },
  });
  server.on('error', () => undefined); // a client that vanished mid-session (the SIGKILL) is not our error
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    received,
    delivered: (address) =>
      received.filter((m) => m.state !== 'refused' && m.to.includes(address.toLowerCase())),
    answer(next) {
      decide = next;
    },
    until(predicate, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`relay: condition not met within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const release of hanging.splice(0)) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
