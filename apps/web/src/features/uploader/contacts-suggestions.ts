import { useEffect, useState } from 'react';
import { listContactGroups, listContacts } from '../../lib/contacts-api';

/** How long typing must pause before the address book is searched. */
export const SUGGEST_DEBOUNCE_MS = 250;
/** At most this many contacts and groups are offered. */
export const SUGGESTED_CONTACTS = 8;
export const SUGGESTED_GROUPS = 4;

/** A contact or a contact group the recipient field offers. */
export type Suggestion =
  | { kind: 'contact'; id: string; email: string; name: string | null }
  | { kind: 'group'; id: string; name: string; memberCount: number };

/**
 * The address book's contacts (recently used first) and groups matching `query`, asked once typing pauses; the
 * previous question is abandoned when a new one starts. Nothing is asked when `enabled` is false (signed out) or
 * the query is empty; a failed search offers nothing (typing an address still works).
 */
export function useContactSuggestions(query: string, enabled: boolean): Suggestion[] {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  useEffect(() => {
    if (!enabled || query === '') {
      setSuggestions([]);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      Promise.all([
        listContacts({ q: query, sort: 'recent', limit: SUGGESTED_CONTACTS }, abort.signal),
        listContactGroups({ q: query, limit: SUGGESTED_GROUPS }, abort.signal),
      ]).then(
        ([contacts, groups]) => {
          if (abort.signal.aborted) return;
          setSuggestions([
            ...contacts.items.map(
              (c): Suggestion => ({ kind: 'contact', id: c.id, email: c.email, name: c.name }),
            ),
            ...groups.items
              .filter((g) => g.memberCount > 0)
              .map(
                (g): Suggestion => ({ kind: 'group', id: g.id, name: g.name, memberCount: g.memberCount }),
              ),
          ]);
        },
        () => {
          if (!abort.signal.aborted) setSuggestions([]);
        },
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, enabled]);
  return suggestions;
}
