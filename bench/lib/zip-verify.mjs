// A streaming checker for stored (uncompressed) ZIP archives such as Ferry's: walks the local headers as the
// bytes arrive and SHA-256-hashes each entry's data, so a ZIP download is verified against the source files
// with the same per-byte cost as a plain download (one hash update per data byte), without keeping anything.
import { createHash } from 'node:crypto';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const LOCAL_HEADER = 30;
const U32_MAX = 0xffffffff;

export class ZipVerifier {
  constructor() {
    /** @type {'header' | 'data' | 'trailer'} */
    this.state = 'header';
    /** @type {Buffer[]} header bytes gathered so far */
    this.pending = [];
    this.pendingLength = 0;
    this.remaining = 0;
    /** @type {import('node:crypto').Hash | null} */
    this.hash = null;
    this.current = { name: '', size: 0 };
    /** @type {Array<{ name: string, size: number, sha256: string }>} */
    this.entries = [];
    this.trailerBytes = 0;
    /** @type {string | null} */
    this.error = null;
  }

  /** @param {Buffer} chunk */
  update(chunk) {
    let offset = 0;
    while (offset < chunk.length && !this.error) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.hash?.update(
          offset === 0 && take === chunk.length ? chunk : chunk.subarray(offset, offset + take),
        );
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0) this.finishEntry();
      } else if (this.state === 'trailer') {
        this.trailerBytes += chunk.length - offset;
        return;
      } else {
        // header: gather just enough bytes to parse it, then go on with the rest of the chunk
        const need = this.headerBytesNeeded();
        const take = Math.min(need - this.pendingLength, chunk.length - offset);
        this.pending.push(chunk.subarray(offset, offset + take));
        this.pendingLength += take;
        offset += take;
        if (this.pendingLength === need) this.parseHeader();
      }
    }
  }

  /** Bytes of header to gather before it can be parsed (grows once the name/extra lengths are known). */
  headerBytesNeeded() {
    if (this.pendingLength < LOCAL_HEADER) return LOCAL_HEADER;
    const head = this.head();
    if (head.readUInt32LE(0) !== SIG_LOCAL) return this.pendingLength;
    return LOCAL_HEADER + head.readUInt16LE(26) + head.readUInt16LE(28);
  }

  head() {
    if (this.pending.length > 1) this.pending = [Buffer.concat(this.pending)];
    return /** @type {Buffer} */ (this.pending[0]);
  }

  parseHeader() {
    const head = this.head();
    const signature = head.readUInt32LE(0);
    if (signature === SIG_CENTRAL) {
      this.state = 'trailer';
      this.trailerBytes = head.length;
      this.pending = [];
      return;
    }
    if (signature !== SIG_LOCAL) {
      this.error = `unexpected signature 0x${signature.toString(16)} after ${this.entries.length} entries`;
      return;
    }
    const nameLength = head.readUInt16LE(26);
    const extraLength = head.readUInt16LE(28);
    if (head.length < LOCAL_HEADER + nameLength + extraLength) return; // not complete yet
    if (head.readUInt16LE(8) !== 0) {
      this.error = 'entry is not stored (compressed ZIPs are not verified)';
      return;
    }
    if (head.readUInt16LE(6) & 0x08) {
      this.error = 'entry uses a data descriptor (size unknown up front)';
      return;
    }
    const name = head.toString('utf8', LOCAL_HEADER, LOCAL_HEADER + nameLength);
    let size = head.readUInt32LE(18);
    if (size === U32_MAX) {
      // ZIP64: the extra field 0x0001 holds the uncompressed then the compressed size (8 bytes each)
      const extra = head.subarray(LOCAL_HEADER + nameLength, LOCAL_HEADER + nameLength + extraLength);
      size = Number.NaN;
      for (let at = 0; at + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(at);
        const length = extra.readUInt16LE(at + 2);
        if (id === 0x0001 && length >= 16) size = Number(extra.readBigUInt64LE(at + 4 + 8));
        at += 4 + length;
      }
      if (!Number.isSafeInteger(size)) {
        this.error = `entry ${name}: ZIP64 size missing`;
        return;
      }
    }
    this.pending = [];
    this.pendingLength = 0;
    this.current = { name, size };
    this.hash = createHash('sha256');
    this.remaining = size;
    this.state = 'data';
    if (size === 0) this.finishEntry();
  }

  finishEntry() {
    this.entries.push({ ...this.current, sha256: this.hash?.digest('hex') ?? '' });
    this.hash = null;
    this.state = 'header';
  }

  /**
   * Compares what was read with the expected entries (by name); returns a list of problems, empty when all good.
   * @param {Array<{ name: string, size: number, sha256: string }>} expected
   */
  problems(expected) {
    const out = [];
    if (this.error) out.push(this.error);
    if (this.state !== 'trailer') out.push(`archive ended inside an entry or header (state ${this.state})`);
    const byName = new Map(this.entries.map((e) => [e.name, e]));
    for (const want of expected) {
      const got = byName.get(want.name);
      if (!got) out.push(`entry ${want.name} missing`);
      else if (got.size !== want.size || got.sha256 !== want.sha256)
        out.push(
          `entry ${want.name}: size ${got.size} sha256 ${got.sha256}, expected ${want.size} ${want.sha256}`,
        );
    }
    if (this.entries.length !== expected.length)
      out.push(`${this.entries.length} entries, expected ${expected.length}`);
    return out;
  }
}
