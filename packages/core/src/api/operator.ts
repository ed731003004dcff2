import { z } from 'zod';
import { PLAN_CODES, PLAN_TYPES } from '../enums.js';
import { Currency, InvoiceStatus, PaymentProviderName, SubscriptionStatus } from './billing.js';

/*
 * The operator console (/operator) and its API under /api/operator/… Operators run the instance: verified
 * accounts whose address is in OPERATOR_EMAILS. To anyone else every route here answers 404, as if it did not
 * exist. Every change an operator makes is recorded (GET /api/operator/actions).
 */

/** GET /api/operator/users?search=&cursor=&limit= → 200 OperatorUserList. */
export const OperatorUsersQuery = z.object({
  search: z.string().trim().max(254).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const OperatorUser = z.object({
  uid: z.string(),
  email: z.string(),
  firstname: z.string().nullable(),
  planType: z.enum(PLAN_TYPES),
  planCode: z.enum(PLAN_CODES).nullable(),
  /** The plan ends at this moment (an operator's end date, or a cancelled subscription's period end). */
  planEndsAt: z.string().datetime().nullable(),
  /** Seats of a CUSTOM contract; null otherwise. */
  licences: z.number().int().nullable(),
  managerId: z.string().nullable(),
  storageUsed: z.number(),
  lastLoginAt: z.string().datetime().nullable(),
  createdAt: z.string().datetime(),
  emailVerified: z.boolean(),
  suspended: z.boolean(),
  suspendedAt: z.string().datetime().nullable(),
});
export type OperatorUser = z.infer<typeof OperatorUser>;
export const OperatorUserList = z.object({ users: z.array(OperatorUser), nextCursor: z.string().nullable() });
export type OperatorUserList = z.infer<typeof OperatorUserList>;

/** PUT /api/operator/users/{uid}/plan → 200 OperatorUser. planCode NONE ends the plan. */
export const SetPlanRequest = z.object({
  planCode: z.enum([...PLAN_CODES, 'NONE']),
  /** YYYY-MM-DD: the plan ends at the end of that day (UTC); absent: no end. */
  until: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
    .nullable()
    .optional(),
  /** Seats of a CUSTOM plan. */
  seats: z.number().int().min(1).max(100_000).optional(),
});
export type SetPlanRequest = z.input<typeof SetPlanRequest>;

/* POST /api/operator/users/{uid}/suspend and …/unsuspend → 200 OperatorUser. */

/** GET /api/operator/subscriptions?status= → 200 { subscriptions: OperatorSubscription[] }. */
export const OperatorSubscription = z.object({
  id: z.string(),
  uid: z.string(),
  email: z.string(),
  planCode: z.enum(PLAN_CODES),
  frequency: z.string(),
  provider: PaymentProviderName,
  status: SubscriptionStatus,
  currency: Currency,
  amount: z.number().int(),
  currentPeriodEnd: z.string().datetime().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  createdAt: z.string().datetime(),
});
export type OperatorSubscription = z.infer<typeof OperatorSubscription>;
export const OperatorSubscriptionList = z.object({ subscriptions: z.array(OperatorSubscription) });

/** GET /api/operator/invoices?open=true → 200 { invoices: OperatorInvoice[] } (the CLI's --json prints the list). */
export const OperatorInvoice = z.object({
  number: z.string(),
  email: z.string(),
  /** null: a buyer of a priced transfer without an account. */
  uid: z.string().nullable(),
  amountDue: z.number().int(),
  total: z.number().int(),
  currency: Currency,
  status: InvoiceStatus,
  provider: PaymentProviderName,
  issuedAt: z.string().datetime(),
  paidAt: z.string().datetime().nullable(),
  pdfUrl: z.string(),
});
export type OperatorInvoice = z.infer<typeof OperatorInvoice>;
export const OperatorInvoiceList = z.object({ invoices: z.array(OperatorInvoice) });
export type OperatorInvoiceList = z.infer<typeof OperatorInvoiceList>;
/* POST /api/operator/invoices/{number}/mark-paid → 200 OperatorInvoice (MANUAL invoices only; paid once);
 * POST /api/operator/invoices/{number}/void → 200 OperatorInvoice (open invoices only). */

/** GET /api/operator/figures → 200 InstanceFigures. */
export const InstanceFigures = z.object({
  accounts: z.number().int(),
  payingAccounts: z.number().int(),
  suspendedAccounts: z.number().int(),
  transfers: z.number().int(),
  bytesStored: z.number(),
  bytesServed7Days: z.number(),
});
export type InstanceFigures = z.infer<typeof InstanceFigures>;

/** GET /api/operator/actions?cursor= → 200 { actions: OperatorAction[], nextCursor }. */
export const OperatorAction = z.object({
  id: z.number().int(),
  at: z.string().datetime(),
  /** The operator's e-mail. */
  operator: z.string(),
  action: z.string(),
  /** What was acted on: a user's e-mail, an invoice number… */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type OperatorAction = z.infer<typeof OperatorAction>;
export const OperatorActionList = z.object({
  actions: z.array(OperatorAction),
  nextCursor: z.string().nullable(),
});

/** GET /api/operator/me → 200 { operator: true } for an operator (the web app shows the console link); 404 otherwise. */
export const OperatorMe = z.object({ operator: z.literal(true), email: z.string() });
