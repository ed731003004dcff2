import type { ReceivePointPublic, ReceiveUploadCreate } from '@ferry/core';
import { type UploaderValues, uploaderBody, uploaderProblems } from '../receive/uploader-fields';

export const NAME_MAX = 200;
export const MESSAGE_MAX = 10_000;
export const ANSWER_MAX = 5000;

/** What the visitor typed in the widget's form: the receive pages' uploader values, and the password. */
export interface WidgetValues extends UploaderValues {
  password: string;
}

export const EMPTY_VALUES: WidgetValues = { name: '', email: '', message: '', password: '', answers: {} };

export type Problem = 'required' | 'too_long' | 'invalid' | 'wrong';

export interface WidgetProblems {
  name?: Problem;
  email?: Problem;
  message?: Problem;
  password?: Problem;
  answers?: Record<string, Problem>;
  files?: Problem;
}

/**
 * The form's rules, from the point's configuration: the receive pages' rules for the uploader's fields
 * (required ones filled, an e-mail that is one), texts within the contract's lengths, a password when the
 * inbox has one, and at least one file.
 */
export function widgetProblems(
  point: Pick<ReceivePointPublic, 'fields' | 'passwordProtected'>,
  values: WidgetValues,
  fileCount: number,
): WidgetProblems {
  const { fields } = point;
  const base = uploaderProblems(values, fields);
  const problems: WidgetProblems = {};
  const name =
    base.name ?? (fields.name !== 'hidden' && values.name.trim().length > NAME_MAX ? 'too_long' : null);
  if (name) problems.name = name;
  if (base.email) problems.email = base.email;
  const message =
    base.message ?? (fields.message !== 'hidden' && values.message.length > MESSAGE_MAX ? 'too_long' : null);
  if (message) problems.message = message;
  if (point.passwordProtected && values.password === '') problems.password = 'required';
  const answers: Record<string, Problem> = { ...base.answers };
  for (const question of fields.questions) {
    if (!answers[question.id] && (values.answers[question.id] ?? '').trim().length > ANSWER_MAX)
      answers[question.id] = 'too_long';
  }
  if (Object.keys(answers).length > 0) problems.answers = answers;
  if (fileCount === 0) problems.files = 'required';
  return problems;
}

export function hasWidgetProblems(problems: WidgetProblems): boolean {
  return Object.keys(problems).length > 0;
}

/** POST /receive/uploads for the widget, without the files (the receive upload adds them). */
export function widgetUploadRequest(
  widgetId: string,
  point: Pick<ReceivePointPublic, 'fields' | 'passwordProtected'>,
  values: WidgetValues,
  options: { locale: string; timeZone?: string },
): Omit<ReceiveUploadCreate, 'files'> {
  return {
    target: { kind: 'widget', widgetId },
    ...(point.passwordProtected && values.password !== '' ? { password: values.password } : {}),
    ...uploaderBody(values, point.fields),
    locale: options.locale,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  };
}
