import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { AppError } from './app-error.js';

/**
 * Where a webhook may not be delivered unless WEBHOOK_ALLOW_PRIVATE=true: loopback, private, link-local, CGNAT,
 * unspecified, multicast and reserved ranges (IPv4, IPv6, and IPv4 written as IPv6).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127], // :: and ::1
  ['64:ff9b::', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is loopback, private, link-local or otherwise not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const n = (Number.parseInt(hex[1]!, 16) << 16) | Number.parseInt(hex[2]!, 16);
    return BLOCKED.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), 'ipv4');
  }
  return BLOCKED.check(address, 'ipv6');
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

function refused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { details: { reason: 'WEBHOOK_URL_REFUSED' } });
}

/**
 * Checks a webhook URL: https (http only with `allowPrivate`), no credentials in it, and every address its host
 * resolves to public (unless `allowPrivate`). Returns the addresses; throws VALIDATION_FAILED otherwise. Run
 * again at each delivery (the connection goes to an address checked then: no DNS rebinding).
 */
export async function checkWebhookUrl(
  url: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<LookupAddress[]> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused('This is not a URL.');
  }
  if (parsed.protocol !== 'https:' && !(options.allowPrivate && parsed.protocol === 'http:'))
    throw refused('A webhook URL must start with https://.');
  if (parsed.username || parsed.password) throw refused('A webhook URL carries no user name or password.');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw refused(`The host ${host} does not resolve.`);
    }
  }
  if (addresses.length === 0) throw refused(`The host ${host} does not resolve.`);
  if (!options.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw refused('A webhook may not point to a loopback, private or link-local address.');
  return addresses;
}
