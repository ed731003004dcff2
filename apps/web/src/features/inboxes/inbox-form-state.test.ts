import { describe, expect, it } from 'vitest';
import { addQuestion, moveQuestion, newQuestionId, removeQuestion } from './fields-state';
import {
  type InboxCaps,
  inboxDraftOf,
  inboxProblems,
  inboxUpdateOf,
  newInboxDraft,
  sizeDraftOf,
  sizeInBytes,
  slugFromTitle,
} from './inbox-form-state';
import { inboxView } from './inboxes.fixture';

const CAPS: InboxCaps = {
  allowInboxS1: true,
  allowInboxS2: true,
  passwordOpt: true,
  requirePassword: false,
  allowCustomization: true,
  notificationOpt: true,
  availabilityOpt: true,
  teamExtensions: [],
  maxUploadBytes: 5e9,
  validityDays: 7,
  managed: false,
};

describe('inbox form rules', () => {
  it('makes an address from the title', () => {
    expect(slugFromTitle('  Ça marche — Dossiers 2030!! ')).toBe('ca-marche-dossiers-2030');
    expect(slugFromTitle(`${'x'.repeat(39)} y`)).toBe('x'.repeat(39));
  });

  it('reads sizes in MB and GB (units of 1000) and shows a stored size back the same way', () => {
    expect(sizeInBytes('1,5', 'GB')).toBe(1_500_000_000);
    expect(sizeInBytes('', 'GB')).toBeNull();
    expect(sizeInBytes('-1', 'MB')).toBeNaN();
    expect(sizeDraftOf(250_000_000)).toEqual({ value: '250', unit: 'MB' });
    expect(sizeDraftOf(2_500_000_000)).toEqual({ value: '2.5', unit: 'GB' });
  });

  it('starts a new inbox in a mode the settings allow', () => {
    expect(newInboxDraft({ allowInboxS1: true, allowInboxS2: true }).linkMode).toBe('S2');
    expect(newInboxDraft({ allowInboxS1: true, allowInboxS2: false }).linkMode).toBe('S1');
  });

  it('holds the draft to the plan and the team', () => {
    const draft = { ...newInboxDraft(CAPS), title: 'A', slug: 'ab', maxUpload: '6', validityDays: '8' };
    expect(inboxProblems(draft, CAPS, null)).toEqual({
      slug: 'invalid',
      maxUpload: 'too_big',
      validityDays: 'too_long',
    });
    const team = { ...CAPS, allowInboxS2: false, requirePassword: true, teamExtensions: ['pdf'] };
    expect(
      inboxProblems(
        { ...draft, slug: 'abc', maxUpload: '', validityDays: '', allowedExtensions: ['pdf', 'exe'] },
        team,
        null,
      ),
    ).toEqual({ linkMode: 'not_allowed', password: 'required', extensions: ['exe'] });
    // An existing inbox keeps its mode even if the team turned it off since (it just stays closed).
    expect(inboxProblems(inboxDraftOf(inboxView()), { ...CAPS, allowInboxS2: false }, inboxView())).toEqual(
      {},
    );
  });

  it('sends only what changed', () => {
    const inbox = inboxView({
      maxUploadBytes: 1_234_567_891,
      customization: { backgroundColor: '#ABCDEF', actionColor: null, startbtnColor: null },
    });
    expect(inboxUpdateOf(inboxDraftOf(inbox), inbox, CAPS)).toEqual({});
    const draft = { ...inboxDraftOf(inbox), description: '  Hello ', maxUpload: '', validityDays: '3' };
    expect(inboxUpdateOf(draft, inbox, CAPS)).toEqual({
      description: 'Hello',
      maxUploadBytes: null,
      fileValidityDays: 3,
    });
  });

  it('gives new questions ids that answers of earlier uploads do not use, and moves them', () => {
    expect(newQuestionId([{ id: 'q2' }, { id: 'q3' }])).toBe('q4');
    let fields = addQuestion(addQuestion(newInboxDraft(CAPS).fields));
    const [a, b] = fields.questions;
    fields = moveQuestion(fields, b!.key, -1);
    expect(fields.questions.map((q) => q.id)).toEqual(['q2', 'q1']);
    expect(moveQuestion(fields, b!.key, -1)).toBe(fields);
    expect(removeQuestion(fields, a!.key).questions.map((q) => q.id)).toEqual(['q2']);
  });
});
