import { EnterpriseContactRequest } from '@ferry/core';

/** The /register/enterprise form as typed. */
export interface EnterpriseForm {
  name: string;
  email: string;
  company: string;
  phone: string;
  teamSize: string;
  message: string;
}

export type EnterpriseField = keyof EnterpriseForm;

/** The i18n key of each field's problem (auth:enterprise_error_<field>). */
export type EnterpriseErrors = Partial<Record<EnterpriseField, string>>;

export const ENTERPRISE_MESSAGE_MAX = 5000;
export const ENTERPRISE_PHONE_MAX = 40;
/** Digits with the usual separators and an optional leading +; at least 6 digits. */
const PHONE = /^\+?[\d\s().-]+$/;

export const EMPTY_ENTERPRISE_FORM: Readonly<EnterpriseForm> = Object.freeze({
  name: '',
  email: '',
  company: '',
  phone: '',
  teamSize: '',
  message: '',
});

/**
 * Checks the form field by field (in the order of the page) and builds the request of EnterpriseContactRequest
 * (@ferry/core); empty optional fields are left out. `errors` holds i18n keys.
 */
export function checkEnterpriseForm(
  form: EnterpriseForm,
  locale?: string,
): { errors: EnterpriseErrors; request: EnterpriseContactRequest | null } {
  const errors: EnterpriseErrors = {};
  const name = form.name.trim();
  const email = form.email.trim();
  const company = form.company.trim();
  const phone = form.phone.trim();
  const teamSize = form.teamSize.trim();
  const message = form.message.trim();
  if (name === '') errors.name = 'auth:enterprise_error_name';
  const request: EnterpriseContactRequest = {
    name,
    email,
    company,
    ...(phone ? { phone } : {}),
    ...(teamSize ? { teamSize: Number(teamSize) } : {}),
    ...(message ? { message } : {}),
    ...(locale ? { locale } : {}),
  };
  const parsed = EnterpriseContactRequest.safeParse(request);
  const failed = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])));
  if (failed.has('email')) errors.email = 'auth:email_invalid';
  if (company === '' || failed.has('company')) errors.company = 'auth:enterprise_error_company';
  if (failed.has('name') && !errors.name) errors.name = 'auth:enterprise_error_name';
  const digits = phone.replace(/\D/g, '').length;
  if (phone && (!PHONE.test(phone) || digits < 6 || failed.has('phone')))
    errors.phone = 'auth:enterprise_error_phone';
  if (teamSize && (!/^\d+$/.test(teamSize) || failed.has('teamSize')))
    errors.teamSize = 'auth:enterprise_error_team_size';
  if (failed.has('message')) errors.message = 'auth:enterprise_error_message';
  const ok = Object.keys(errors).length === 0 && parsed.success;
  return { errors, request: ok ? request : null };
}
