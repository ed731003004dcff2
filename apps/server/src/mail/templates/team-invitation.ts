import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface TeamInvitationInput {
  /** Who invites: their first name, else their address. */
  inviter: string;
  inviterEmail: string;
  /** The one-time link `/join?token=…`. */
  url: string;
  validDays: number;
}

/** An invitation to join a team, in the inviter's language. */
export async function teamInvitation(ctx: MailContext, input: TeamInvitationInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const intro = t('team_invitation_intro', {
    product: k.product,
    inviter: input.inviter,
    email: input.inviterEmail,
  });
  return renderMail(
    k.content({
      subject: t('team_invitation_subject', { product: k.product, inviter: input.inviter }),
      preview: intro,
      heading: t('team_invitation_heading'),
      blocks: [
        { kind: 'paragraph', text: intro },
        k.button(input.url, t('team_invitation_button')),
        { kind: 'paragraph', text: t('team_invitation_valid', { count: input.validDays }) },
      ],
      why: t('team_invitation_why', { product: k.product, email: input.inviterEmail }),
    }),
  );
}
