import { describe, expect, it } from 'vitest';
import { passwordStrength, strengthLevel } from './password-strength';

describe('passwordStrength', () => {
  it('says empty, and too short below the 10 characters the server requires', () => {
    expect(passwordStrength('')).toBe('empty');
    expect(passwordStrength('Ab1!xyz')).toBe('too_short');
    expect(passwordStrength('x'.repeat(257))).toBe('too_short');
  });

  it('calls runs, common words and the person’s own address weak', () => {
    expect(passwordStrength('aaaaaaaaaaaa')).toBe('weak');
    expect(passwordStrength('abcdefghijkl')).toBe('weak');
    expect(passwordStrength('9876543210')).toBe('weak');
    expect(passwordStrength('password1234')).toBe('weak');
    expect(passwordStrength('ada.lovelace99', ['ada.lovelace@example.com'])).toBe('weak');
  });

  it('rewards length first, then variety', () => {
    expect(passwordStrength('Tr0ub4dor&3')).toBe('fair');
    expect(passwordStrength('MyDog&Cat2024!')).toBe('good');
    expect(passwordStrength('correcthorsebattery')).toBe('fair');
    expect(passwordStrength('correct horse battery staple')).toBe('strong');
    expect(passwordStrength('Correct-Horse-Battery-Staple-42')).toBe('strong');
  });

  it('fills the meter by strength', () => {
    expect(strengthLevel('too_short')).toBe(0);
    expect(strengthLevel('weak')).toBe(1);
    expect(strengthLevel('strong')).toBe(4);
  });
});
