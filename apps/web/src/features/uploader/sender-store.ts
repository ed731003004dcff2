import { readJson, writeJson } from '../../lib/storage';

/** The anonymous sender's e-mail and full name, kept by the browser (spec §3 Local storage). */
export interface SenderIdentity {
  email: string;
  name: string;
}

export const SENDER_STORAGE_KEY = 'ferry.sender';

export function loadSender(): SenderIdentity {
  const value = readJson(SENDER_STORAGE_KEY) as Partial<SenderIdentity> | null;
  return {
    email: typeof value?.email === 'string' ? value.email : '',
    name: typeof value?.name === 'string' ? value.name : '',
  };
}

export function saveSender(sender: SenderIdentity): void {
  writeJson(SENDER_STORAGE_KEY, { email: sender.email, name: sender.name });
}
