import { Resolver } from 'node:dns/promises';

/** Reads a name's TXT records; each record's strings joined (a long value may be split in 255-byte parts). */
export type TxtLookup = (name: string) => Promise<string[]>;

/** DNS answers that mean "no such record" rather than "could not ask". */
const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/**
 * TXT look-ups through the system resolver, or through DNS_RESOLVER (`host:port`) when set. A missing name or
 * record answers [], any other failure (timeout, refused) is thrown.
 */
export function txtLookup(server: string | null, timeoutMs = 5000): TxtLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (server) resolver.setServers([server]);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((parts) => parts.join(''));
    } catch (error) {
      if (NOT_FOUND.has((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  };
}
