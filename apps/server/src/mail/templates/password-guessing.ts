import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface PasswordGuessingInput {
  /** What the password protects: a transfer, or a receive point (a file request or an upload inbox). */
  kind: 'transfer' | 'request' | 'inbox';
  /** Its name as the owner knows it (transfer name, request subject, inbox title); null when it has none. */
  name: string | null;
  /** For an unnamed transfer: "3 files". */
  fileCount?: number;
  /** Wrong passwords from every address that closed it. */
  failures: number;
  /** Until when every password, the right one too, is refused. */
  lockedUntil: Date;
  /** Where the owner manages it (the transfer's page); none for receive points. */
  url?: string;
}

/**
 * To the owner of something password-protected: so many wrong passwords were tried that it now refuses every
 * password for a while. Sent once per such window; it tells what happened, what it means for the people the
 * owner gave the password to, and what to do if it goes on.
 */
export async function passwordGuessing(
  ctx: MailContext,
  input: PasswordGuessingInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const named = input.name?.trim();
  const what =
    input.kind === 'transfer'
      ? t('password_guessing_what_transfer', { name: k.transferName(named, input.fileCount ?? 0) })
      : named
        ? t(`password_guessing_what_${input.kind}`, { name: named })
        : t(`password_guessing_what_${input.kind}_unnamed`);
  const until = k.dateTime(input.lockedUntil);
  return renderMail(
    k.content({
      subject: t('password_guessing_subject', { what }),
      preview: t('password_guessing_intro', { what, count: input.failures }),
      heading: t('password_guessing_heading'),
      blocks: [
        { kind: 'paragraph', text: t('password_guessing_intro', { what, count: input.failures }) },
        {
          kind: 'facts',
          rows: [
            { label: t('password_guessing_failures_label'), value: String(input.failures) },
            { label: t('password_guessing_until_label'), value: until },
          ],
        },
        { kind: 'paragraph', text: t('password_guessing_effect', { date: until }) },
        { kind: 'paragraph', text: t(`password_guessing_advice_${input.kind}`) },
        ...(input.url ? [k.button(input.url, t('view_transfer'))] : []),
      ],
      why: t('password_guessing_why', { product: k.product }),
    }),
  );
}
