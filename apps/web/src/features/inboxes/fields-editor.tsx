import { FIELD_MODES, type FieldMode, type ReceiveLinkMode } from '@ferry/core';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addQuestion,
  type FieldsDraft,
  MAX_QUESTIONS,
  moveQuestion,
  QUESTION_LABEL_MAX,
  removeQuestion,
  updateQuestion,
} from './fields-state';

const STANDARD = ['name', 'email', 'message'] as const;

function ModeSelect(props: {
  field: (typeof STANDARD)[number];
  value: FieldMode;
  locked: boolean;
  testId: string;
  onChange: (mode: FieldMode) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field fields-mode">
      <label htmlFor={id}>{t(`account:inboxes.field_${props.field}`)}</label>
      <select
        id={id}
        value={props.locked ? 'required' : props.value}
        disabled={props.locked}
        aria-describedby={props.locked ? `${id}-locked` : undefined}
        onChange={(event) => props.onChange(event.target.value as FieldMode)}
        data-testid={`${props.testId}-${props.field}`}
      >
        {FIELD_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {t(`account:inboxes.mode_${mode}`)}
          </option>
        ))}
      </select>
      {props.locked && (
        <p id={`${id}-locked`} className="field-hint">
          {t('account:inboxes.email_locked_s1')}
        </p>
      )}
    </div>
  );
}

/**
 * What the upload form asks: name, e-mail and message (hidden, optional or required) and custom questions
 * that can be added, labelled, made required, moved up and down, and removed. An S1 inbox always requires the
 * e-mail (its uploaders get a receipt).
 */
export function FieldsEditor(props: {
  value: FieldsDraft;
  linkMode: ReceiveLinkMode;
  problems: Record<string, 'label_required' | 'label_too_long'>;
  testId: string;
  onChange: (value: FieldsDraft) => void;
}) {
  const { t } = useTranslation();
  const { value, onChange, testId } = props;
  const id = useId();
  const list = useRef<HTMLOListElement>(null);
  const add = useRef<HTMLButtonElement>(null);
  const count = value.questions.length;
  const lastCount = useRef(count);
  const moved = useRef<{ key: string; by: -1 | 1 } | null>(null);
  // A moved question keeps keyboard focus on its arrow (or the other one, once it reaches an end).
  useEffect(() => {
    const target = moved.current;
    if (!target) return;
    moved.current = null;
    const item = list.current?.querySelector(`li[data-key="${target.key}"]`);
    const buttons = [...(item?.querySelectorAll<HTMLButtonElement>('button[data-move]') ?? [])];
    const wanted = buttons.find((b) => b.dataset.move === String(target.by) && !b.disabled);
    (wanted ?? buttons.find((b) => !b.disabled))?.focus();
  });
  const move = (key: string, by: -1 | 1) => {
    moved.current = { key, by };
    onChange(moveQuestion(value, key, by));
  };
  // A new question takes focus on its label; after a removal, focus goes to the "add" button.
  useEffect(() => {
    if (count > lastCount.current)
      list.current?.querySelector<HTMLInputElement>('li:last-child input[type="text"]')?.focus();
    else if (count < lastCount.current) add.current?.focus();
    lastCount.current = count;
  }, [count]);

  return (
    <fieldset className="fieldset fields-editor" data-testid={testId}>
      <legend className="field-label">{t('account:inboxes.fields_legend')}</legend>
      <p className="field-hint">{t('account:inboxes.fields_hint')}</p>
      <div className="fields-modes">
        {STANDARD.map((field) => (
          <ModeSelect
            key={field}
            field={field}
            value={value[field]}
            locked={field === 'email' && props.linkMode === 'S1'}
            testId={testId}
            onChange={(mode) => onChange({ ...value, [field]: mode })}
          />
        ))}
      </div>
      <h3 className="fields-questions-title" id={`${id}-questions`}>
        {t('account:inboxes.questions_title')}
      </h3>
      {count === 0 && <p className="field-hint">{t('account:inboxes.questions_none')}</p>}
      <ol ref={list} className="questions" aria-labelledby={`${id}-questions`}>
        {value.questions.map((question, index) => {
          const problem = props.problems[question.key];
          const labelId = `${id}-q-${question.key}`;
          return (
            <li
              key={question.key}
              className="question"
              data-key={question.key}
              data-testid={`${testId}-question`}
            >
              <div className="field">
                <label htmlFor={labelId}>{t('account:inboxes.question_label', { number: index + 1 })}</label>
                <input
                  id={labelId}
                  type="text"
                  value={question.label}
                  maxLength={QUESTION_LABEL_MAX + 50}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${labelId}-error` : undefined}
                  onChange={(event) =>
                    onChange(updateQuestion(value, question.key, { label: event.target.value }))
                  }
                  data-testid={`${testId}-question-label`}
                />
                {problem && (
                  <p id={`${labelId}-error`} className="field-error">
                    {t(`account:inboxes.question_${problem}`, { max: QUESTION_LABEL_MAX })}
                  </p>
                )}
              </div>
              <div className="question-actions">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={question.required}
                    onChange={(event) =>
                      onChange(updateQuestion(value, question.key, { required: event.target.checked }))
                    }
                    data-testid={`${testId}-question-required`}
                  />
                  <span>{t('account:inboxes.question_required')}</span>
                </label>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={index === 0}
                  aria-label={t('account:inboxes.question_up', { number: index + 1 })}
                  data-move="-1"
                  onClick={() => move(question.key, -1)}
                  data-testid={`${testId}-question-up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={index === count - 1}
                  aria-label={t('account:inboxes.question_down', { number: index + 1 })}
                  data-move="1"
                  onClick={() => move(question.key, 1)}
                  data-testid={`${testId}-question-down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={t('account:inboxes.question_remove', { number: index + 1 })}
                  onClick={() => onChange(removeQuestion(value, question.key))}
                  data-testid={`${testId}-question-remove`}
                >
                  {t('account:inboxes.remove')}
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <button
          ref={add}
          type="button"
          className="button button-secondary button-small"
          disabled={count >= MAX_QUESTIONS}
          onClick={() => onChange(addQuestion(value))}
          data-testid={`${testId}-question-add`}
        >
          {t('account:inboxes.question_add')}
        </button>
        {count >= MAX_QUESTIONS && (
          <p className="field-hint">{t('account:inboxes.questions_max', { max: MAX_QUESTIONS })}</p>
        )}
      </div>
    </fieldset>
  );
}
