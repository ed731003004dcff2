import type Mail from 'nodemailer/lib/mailer/index.js';
import { assertIdempotencyKey, messageIdFor, type OutgoingMail, type SenderIdentity } from './mailer.js';

/** DKIM signing key, from config (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY). */
export interface DkimSettings {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

// Headers our adapters set themselves; a caller's copy would make a second, conflicting line.
const RESERVED = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'message-id',
  'date',
  'reply-to',
  'sender',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
]);

// nodemailer's default list (RFC 4871 §5.5) plus List-Unsubscribe-Post, which RFC 8058 wants signed.
const DKIM_HEADERS = [
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding',
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc',
  'Resent-Message-ID:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post',
  'List-Subscribe:List-Post:List-Owner:List-Archive',
].join(':');

/** A header value on one line: user text (a transfer name in a subject) must not start a new header. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+\s*/g, ' ').trim();
}

/** The nodemailer message of an OutgoingMail, the same for every transport so .eml files match what SMTP sends. */
export function toNodemailerMessage(
  message: OutgoingMail,
  sender: SenderIdentity,
  dkim: DkimSettings | null,
): Mail.Options {
  assertIdempotencyKey(message.idempotencyKey);
  if (message.to.length === 0) throw new Error('A mail needs at least one recipient');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {}))
    if (!RESERVED.has(name.toLowerCase())) headers[name] = oneLine(value);
  if (message.listUnsubscribeUrl) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  return {
    from: { name: oneLine(sender.name), address: sender.address },
    to: message.to,
    replyTo: message.replyTo,
    subject: oneLine(message.subject),
    text: message.text,
    html: message.html,
    messageId: messageIdFor(message.idempotencyKey, sender.address),
    headers,
    list: message.listUnsubscribeUrl ? { unsubscribe: message.listUnsubscribeUrl } : undefined,
    dkim: dkim ? { ...dkim, headerFieldNames: DKIM_HEADERS } : undefined,
    // Readers never fetch anything: templates carry no remote images, and nodemailer must not fetch URLs either.
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}
