import type { InboxView, WidgetCreate, WidgetUpdate, WidgetView } from '@ferry/core';
import { THEME_KEYS } from '../widget/theme';
import { type FieldsDraft, fieldsDraftOf, fieldsOfDraft, questionProblems } from './fields-state';
import { NO_COLORS, type ThemeDraft, themeInput } from './inbox-form-state';

export const WIDGET_NAME_MAX = 200;

export interface WidgetDraft {
  name: string;
  /** The widget's own colours; null = the inbox's (or the spec §3 default). */
  colors: ThemeDraft;
  fields: FieldsDraft;
}

export interface WidgetEditorProblems {
  name?: 'too_long';
  questions?: Record<string, 'label_required' | 'label_too_long'>;
}

/** A new widget asks what its inbox asks, in the inbox's colours. */
export function newWidgetDraft(inbox: InboxView): WidgetDraft {
  return { name: '', colors: NO_COLORS, fields: fieldsDraftOf(inbox.fields) };
}

export function widgetDraftOf(widget: WidgetView): WidgetDraft {
  return { name: widget.name ?? '', colors: { ...widget.theme }, fields: fieldsDraftOf(widget.fields) };
}

export function widgetEditorProblems(draft: WidgetDraft): WidgetEditorProblems {
  const problems: WidgetEditorProblems = {};
  if (draft.name.trim().length > WIDGET_NAME_MAX) problems.name = 'too_long';
  const questions = questionProblems(draft.fields);
  if (Object.keys(questions).length > 0) problems.questions = questions;
  return problems;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** POST /receive/inboxes/{id}/widgets: colours only when the owner may customize and picked some. */
export function widgetCreateOf(
  draft: WidgetDraft,
  inbox: InboxView,
  allowCustomization: boolean,
): WidgetCreate {
  const body: WidgetCreate = { fields: fieldsOfDraft(draft.fields, inbox.linkMode) };
  if (draft.name.trim() !== '') body.name = draft.name.trim();
  if (allowCustomization && THEME_KEYS.some((k) => draft.colors[k] !== null))
    body.theme = themeInput(draft.colors);
  return body;
}

/** PATCH /receive/widgets/{id}: what changed. */
export function widgetUpdateOf(
  draft: WidgetDraft,
  original: WidgetView,
  inbox: InboxView,
  allowCustomization: boolean,
): WidgetUpdate {
  const patch: WidgetUpdate = {};
  const name = draft.name.trim() === '' ? null : draft.name.trim();
  if (name !== original.name) patch.name = name;
  const fields = fieldsOfDraft(draft.fields, inbox.linkMode);
  if (!same(fields, original.fields)) patch.fields = fields;
  if (allowCustomization && !same(themeInput(draft.colors), themeInput(original.theme)))
    patch.theme = themeInput(draft.colors);
  return patch;
}
