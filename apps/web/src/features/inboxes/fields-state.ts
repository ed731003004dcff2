import type { FieldMode, ReceiveLinkMode, UploaderFields, UploaderFieldsInput } from '@ferry/core';

/** Most custom questions one form may ask (the contract's limit). */
export const MAX_QUESTIONS = 20;
export const QUESTION_LABEL_MAX = 200;

/** One custom question being edited; `key` is local (React), `id` is what answers are stored under. */
export interface QuestionDraft {
  key: string;
  id: string;
  label: string;
  required: boolean;
}

export interface FieldsDraft {
  name: FieldMode;
  email: FieldMode;
  message: FieldMode;
  questions: QuestionDraft[];
}

/** What a new inbox or widget asks: name, e-mail and message, all optional, no questions. */
export const DEFAULT_FIELDS: FieldsDraft = {
  name: 'optional',
  email: 'optional',
  message: 'optional',
  questions: [],
};

let keys = 0;
const nextKey = () => `k${++keys}`;

export function fieldsDraftOf(fields: UploaderFields): FieldsDraft {
  return {
    name: fields.name,
    email: fields.email,
    message: fields.message,
    questions: fields.questions.map((q) => ({
      key: nextKey(),
      id: q.id,
      label: q.label,
      required: q.required,
    })),
  };
}

/** A question id not used yet in the form: q1, q2, … (answers of earlier uploads keep their own ids). */
export function newQuestionId(questions: readonly { id: string }[]): string {
  const used = new Set(questions.map((q) => q.id));
  for (let n = questions.length + 1; ; n++) if (!used.has(`q${n}`)) return `q${n}`;
}

export function addQuestion(draft: FieldsDraft): FieldsDraft {
  if (draft.questions.length >= MAX_QUESTIONS) return draft;
  const question = { key: nextKey(), id: newQuestionId(draft.questions), label: '', required: false };
  return { ...draft, questions: [...draft.questions, question] };
}

export function removeQuestion(draft: FieldsDraft, key: string): FieldsDraft {
  return { ...draft, questions: draft.questions.filter((q) => q.key !== key) };
}

/** Moves a question one place up (-1) or down (+1); nothing happens at either end. */
export function moveQuestion(draft: FieldsDraft, key: string, by: -1 | 1): FieldsDraft {
  const from = draft.questions.findIndex((q) => q.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= draft.questions.length) return draft;
  const questions = [...draft.questions];
  const [moved] = questions.splice(from, 1);
  if (moved) questions.splice(to, 0, moved);
  return { ...draft, questions };
}

export function updateQuestion(draft: FieldsDraft, key: string, patch: Partial<QuestionDraft>): FieldsDraft {
  return { ...draft, questions: draft.questions.map((q) => (q.key === key ? { ...q, ...patch } : q)) };
}

/** Keys of the questions without a label (each needs one). */
export function questionProblems(draft: FieldsDraft): Record<string, 'label_required' | 'label_too_long'> {
  const problems: Record<string, 'label_required' | 'label_too_long'> = {};
  for (const q of draft.questions) {
    if (q.label.trim() === '') problems[q.key] = 'label_required';
    else if (q.label.trim().length > QUESTION_LABEL_MAX) problems[q.key] = 'label_too_long';
  }
  return problems;
}

/** The fields as the API takes them; an S1 inbox always asks for the e-mail. */
export function fieldsOfDraft(draft: FieldsDraft, linkMode: ReceiveLinkMode): UploaderFieldsInput {
  return {
    name: draft.name,
    email: linkMode === 'S1' ? 'required' : draft.email,
    message: draft.message,
    questions: draft.questions.map((q) => ({ id: q.id, label: q.label.trim(), required: q.required })),
  };
}
