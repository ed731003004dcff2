import { readJson, writeJson } from '../../lib/storage';
import { addressKey } from './recipients';

/** The anonymous sender's e-mail and full name, kept by the browser (spec §3 Local storage). */
export interface SenderIdentity {
  email: string;
  name: string;
}

/** Proof that this browser's sender owns an address (POST …/sender-verification), valid until `expiresAt`. */
export interface SenderVerification {
  email: string;
  token: string;
  expiresAt: string;
}

export const SENDER_STORAGE_KEY = 'ferry.sender';

/** Addresses whose proof is kept: a few, the most recent first. */
const MAX_VERIFICATIONS = 5;

interface StoredSender extends SenderIdentity {
  verifications: SenderVerification[];
}

function isVerification(value: unknown): value is SenderVerification {
  const v = value as SenderVerification;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.email === 'string' &&
    typeof v.token === 'string' &&
    typeof v.expiresAt === 'string'
  );
}

function load(): StoredSender {
  const value = readJson(SENDER_STORAGE_KEY) as Partial<StoredSender> | null;
  return {
    email: typeof value?.email === 'string' ? value.email : '',
    name: typeof value?.name === 'string' ? value.name : '',
    verifications: Array.isArray(value?.verifications) ? value.verifications.filter(isVerification) : [],
  };
}

export function loadSender(): SenderIdentity {
  const { email, name } = load();
  return { email, name };
}

/** Saves the sender's e-mail and name; the proofs of their addresses are kept. */
export function saveSender(sender: SenderIdentity): void {
  const stored = load();
  writeJson(SENDER_STORAGE_KEY, { ...stored, email: sender.email, name: sender.name });
}

/** The saved, unexpired proof for this address (any case), to send as `senderVerificationToken`. */
export function loadVerificationToken(email: string, now = Date.now()): string | undefined {
  const key = addressKey(email);
  if (key === '') return undefined;
  const found = load().verifications.find((v) => addressKey(v.email) === key);
  if (!found) return undefined;
  const expires = Date.parse(found.expiresAt);
  return Number.isNaN(expires) || expires <= now ? undefined : found.token;
}

/** Keeps the proof returned by a successful verification, next to the sender's e-mail and name. */
export function saveVerificationToken(verification: SenderVerification): void {
  const stored = load();
  const key = addressKey(verification.email);
  const others = stored.verifications.filter((v) => addressKey(v.email) !== key);
  writeJson(SENDER_STORAGE_KEY, {
    ...stored,
    verifications: [verification, ...others].slice(0, MAX_VERIFICATIONS),
  });
}
