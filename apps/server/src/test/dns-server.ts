import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** A small authoritative DNS server on 127.0.0.1 (UDP, a free port) answering TXT records a test sets. */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_RESOLVER. */
  address: string;
  /** Sets (or with [] removes) the TXT values of a name. */
  setTxt(name: string, values: string[]): void;
  /** How many questions it was asked, per lowercase name. */
  asked(name: string): number;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const questions = new Map<string, number>();
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const answers: dnsPacket.Answer[] = [];
    for (const q of query.questions ?? []) {
      const name = q.name.toLowerCase();
      questions.set(name, (questions.get(name) ?? 0) + 1);
      if (q.type !== 'TXT') continue;
      for (const value of records.get(name) ?? [])
        answers.push({ name: q.name, type: 'TXT', class: 'IN', ttl: 0, data: [value] });
    }
    const known = (query.questions ?? []).some((q) => records.has(q.name.toLowerCase()));
    const answer = dnsPacket.encode({
      id: query.id,
      type: 'response',
      // NXDOMAIN (rcode 3) for a name without records: the resolver answers ENOTFOUND.
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (known ? 0 : 3),
      questions: query.questions,
      answers,
    });
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setTxt(name, values) {
      if (values.length === 0) records.delete(name.toLowerCase());
      else records.set(name.toLowerCase(), values);
    },
    asked: (name) => questions.get(name.toLowerCase()) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
