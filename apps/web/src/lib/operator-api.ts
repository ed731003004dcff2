import {
  InstanceFigures,
  OperatorActionList,
  OperatorInvoice,
  OperatorInvoiceList,
  OperatorMe,
  OperatorSubscriptionList,
  OperatorUser,
  OperatorUserList,
  type SetPlanRequest,
} from '@ferry/core';
import { apiRequest } from './api';

/** The operator console's calls (docs/api.md "Operator console"): 404 NOT_FOUND to anyone but an operator. */

const user = (uid: string) => `/operator/users/${encodeURIComponent(uid)}`;
const invoice = (number: string) => `/operator/invoices/${encodeURIComponent(number)}`;

export const operatorMe = (signal?: AbortSignal) =>
  apiRequest('/operator/me', { schema: OperatorMe, signal });

export const listOperatorUsers = (query: { search?: string; cursor?: string }, signal?: AbortSignal) =>
  apiRequest('/operator/users', { schema: OperatorUserList, query, signal });

export const getOperatorUser = (uid: string, signal?: AbortSignal) =>
  apiRequest(user(uid), { schema: OperatorUser, signal });

export const suspendUser = (uid: string) =>
  apiRequest(`${user(uid)}/suspend`, { method: 'POST', schema: OperatorUser });

export const unsuspendUser = (uid: string) =>
  apiRequest(`${user(uid)}/unsuspend`, { method: 'POST', schema: OperatorUser });

export const setUserPlan = (uid: string, body: SetPlanRequest) =>
  apiRequest(`${user(uid)}/plan`, { method: 'PUT', body, schema: OperatorUser });

export const listOperatorSubscriptions = (signal?: AbortSignal) =>
  apiRequest('/operator/subscriptions', { schema: OperatorSubscriptionList, signal });

export const listOperatorInvoices = (open: boolean, signal?: AbortSignal) =>
  apiRequest('/operator/invoices', {
    schema: OperatorInvoiceList,
    query: { open: open ? 'true' : undefined },
    signal,
  });

export const markInvoicePaid = (number: string) =>
  apiRequest(`${invoice(number)}/mark-paid`, { method: 'POST', schema: OperatorInvoice });

export const voidInvoice = (number: string) =>
  apiRequest(`${invoice(number)}/void`, { method: 'POST', schema: OperatorInvoice });

export const operatorFigures = (signal?: AbortSignal) =>
  apiRequest('/operator/figures', { schema: InstanceFigures, signal });

export const listOperatorActions = (cursor: string | undefined, signal?: AbortSignal) =>
  apiRequest('/operator/actions', { schema: OperatorActionList, query: { cursor }, signal });
