import type { Currency } from '@ferry/core';
import { type MailContext, mailKit } from './common.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

/** Which step of dunning: the renewal failed (day 0), a retry failed (day 3), the plan ended (day 7). */
export type DunningStage = 'failed' | 'retry' | 'ended';

export interface SubscriptionDunningInput {
  stage: DunningStage;
  planCode: string;
  /** Per period, VAT excluded, minor units. */
  amount: number;
  currency: Currency;
  /** MANUAL: an open invoice is waiting for a bank transfer; cards: the card was declined. */
  byInvoice: boolean;
  /** The last day before the plan falls back to the free plan (failed, retry). */
  endsAt: Date | null;
  /** /account/subscriptions. */
  manageUrl: string;
}

/** To the paying account when a renewal is not paid: days 0 and 3, then when the plan has ended. */
export async function subscriptionDunning(
  ctx: MailContext,
  input: SubscriptionDunningInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const price = new Intl.NumberFormat(k.intl, { style: 'currency', currency: input.currency }).format(
    input.amount / 100,
  );
  const vars = { product: k.product, plan: input.planCode, price };
  const how = input.byInvoice ? 'invoice' : 'card';
  const intro =
    input.stage === 'ended'
      ? t('subscription_ended_intro', vars)
      : t(`subscription_${input.stage}_intro_${how}`, vars);
  const rows = [
    { label: t('subscription_plan_label'), value: input.planCode },
    { label: t('subscription_amount_label'), value: price },
  ];
  if (input.endsAt && input.stage !== 'ended')
    rows.push({ label: t('subscription_ends_label'), value: k.date(input.endsAt) });
  const blocks: MailBlock[] = [
    { kind: 'paragraph', text: intro },
    { kind: 'facts', rows },
    ...(input.stage === 'ended' ? [{ kind: 'paragraph' as const, text: t('subscription_ended_files') }] : []),
    k.button(input.manageUrl, t('subscription_manage_button')),
  ];
  return renderMail(
    k.content({
      subject: t(`subscription_${input.stage}_subject`, vars),
      preview: intro,
      heading: t(`subscription_${input.stage}_heading`, vars),
      blocks,
      why: t('subscription_why', vars),
    }),
  );
}
