import { Password } from '@ferry/core';

/** How strong a new password looks; `too_short` is the only one the server refuses (10..256 characters). */
export type PasswordStrength = 'empty' | 'too_short' | 'weak' | 'fair' | 'good' | 'strong';

const COMMON = [
  'password',
  'motdepasse',
  'azerty',
  'qwerty',
  'letmein',
  'welcome',
  'bienvenue',
  'iloveyou',
  'admin',
  'ferry',
  '123456',
  'abcdef',
];

/** The same character, or a run of consecutive characters ("abcd", "4321"), over the whole password. */
function isMonotone(text: string): boolean {
  if (new Set(text).size <= 2) return true;
  let up = true;
  let down = true;
  for (let i = 1; i < text.length; i++) {
    const step = text.charCodeAt(i) - text.charCodeAt(i - 1);
    if (step !== 1) up = false;
    if (step !== -1) down = false;
  }
  return up || down;
}

/**
 * A hint, not a rule: length counts most (long passphrases are welcome, spec of the contract), then the
 * variety of characters; common words, the person's own e-mail or name, and runs ("aaaa…", "1234…") make
 * it weak.
 */
export function passwordStrength(password: string, personal: readonly string[] = []): PasswordStrength {
  if (password === '') return 'empty';
  if (!Password.safeParse(password).success) return 'too_short';
  const lower = password.toLowerCase();
  const words = personal.flatMap((p) => p.toLowerCase().split(/[@.\s_+-]+/)).filter((w) => w.length >= 3);
  const stripped = [...COMMON, ...words].reduce((rest, word) => rest.split(word).join(''), lower);
  if (isMonotone(lower) || stripped.length < 6) return 'weak';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  let score = 0;
  if (stripped.length >= 12) score++;
  if (stripped.length >= 16) score++;
  if (stripped.length >= 24) score++;
  if (classes >= 3) score++;
  if (classes >= 2 && stripped.length >= 10) score++;
  if (score <= 1) return 'weak';
  if (score === 2) return 'fair';
  if (score === 3) return 'good';
  return 'strong';
}

/** 0–4 filled bars of the meter. */
export function strengthLevel(strength: PasswordStrength): number {
  return { empty: 0, too_short: 0, weak: 1, fair: 2, good: 3, strong: 4 }[strength];
}
