declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done: () => void) => void): void;
    unhookEvent(event: string): void;
  }
  const exitHook: ExitHook;
  export default exitHook;
}

declare module 'dns-packet' {
  export interface Question {
    name: string;
    type: string;
    class?: string;
  }
  export interface Answer {
    name: string;
    type: string;
    class?: string;
    ttl?: number;
    data: unknown;
  }
  export interface Packet {
    id?: number;
    type?: 'query' | 'response';
    flags?: number;
    questions?: Question[];
    answers?: Answer[];
  }
  export function decode(buf: Buffer): Packet;
  export function encode(packet: Packet): Buffer;
  export const AUTHORITATIVE_ANSWER: number;
}
