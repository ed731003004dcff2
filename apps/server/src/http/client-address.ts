import proxyAddr from '@fastify/proxy-addr';

/**
 * Which reverse proxies in front of Ferry are believed (TRUST_PROXY): none, the last `hops` of them (counted from
 * Ferry's own socket), or those at the given addresses and subnets. The client is the first address not trusted,
 * counted from the right of `X-Forwarded-For`; entries left of it were written by the client and mean nothing.
 */
export type TrustProxy = false | { readonly hops: number } | { readonly addresses: readonly string[] };

/** Tells whether the address at `hop` (0: the socket's peer, 1: the right-most X-Forwarded-For entry …) is a proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** The trust function Fastify (request.ip, .protocol, .host) and the per-client connection cap share. */
export function proxyTrust(setting: TrustProxy): ProxyTrust {
  if (setting === false) return () => false;
  if ('hops' in setting) {
    const hops = setting.hops;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile([...setting.addresses]);
}

/** Checks a TRUST_PROXY address list; returns the problem, or null when proxy-addr takes every entry. */
export function trustListProblem(addresses: readonly string[]): string | null {
  for (const address of addresses) {
    try {
      proxyAddr.compile(address);
    } catch {
      return `"${address}" is not an IP address, a CIDR subnet or one of loopback, linklocal, uniquelocal`;
    }
  }
  return null;
}
