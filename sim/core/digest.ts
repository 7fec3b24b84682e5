// A 64-bit digest of plain data, equal for two values exactly when their JSON texts are equal
// (barring collisions), computed without writing the text. Objects are immutable data here
// (machine contexts, queued items, effects: world/state.ts), so a big object's digest is kept once
// it is computed, and a new context that shares its big parts with the last one costs only the
// rest. This is what makes exploration's state fingerprints (world/fork.ts) incremental: the
// JSON key of a state was ≈ 2 KB written and hashed per state, a third of the exploration's time.
//
// The mixing is MurmurHash3's (x86, two lanes of 32 bits with their own constants, finalized and
// crossed as its 128-bit variant does): not cryptographic, uniform enough for the birthday bound
// that search/exhaustive/explore.ts states. Values are tagged (an object, an array, a string, a
// number…) and lengths are mixed in, so that the encoding of a value is unambiguous.
import { UNCOUNTED } from '../../models/knob-choice.ts';

export interface Digest {
  hi: number;
  lo: number;
}

const OBJECT = 1;
const ARRAY = 2;
const STRING = 3;
const INT = 4;
const FLOAT = 5;
const TRUE = 6;
const FALSE = 7;
const NULL = 8;
const TO_JSON = 9;
const LONG_STRING = 10;

function mixA(h: number, w: number): number {
  let k = Math.imul(w, 0x239b961b);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0xab0e9789);
  h = (h << 19) | (h >>> 13);
  return (Math.imul(h, 5) + 0x561ccd1b) | 0;
}

function mixB(h: number, w: number): number {
  let k = Math.imul(w, 0x38b34ae5);
  k = (k << 17) | (k >>> 15);
  h ^= Math.imul(k, 0xa1e38b93);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0x0bcaa747) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const floats = new Float64Array(1);
const floatWords = new Int32Array(floats.buffer);

/** A running digest: words, strings and values are fed in order, `done` gives the digest. */
export class Hasher {
  private a = 0x9747b28c;
  private b = 0x2c3f1a5e;
  private n = 0;

  word(w: number): void {
    this.a = mixA(this.a, w);
    this.b = mixB(this.b, w);
    this.n++;
    fed++;
  }

  /** A string value: a short one by its characters, a longer one by its own digest, which is kept. */
  string(s: string): void {
    if (s.length <= SHORT_STRING) {
      this.word(STRING);
      this.characters(s);
    } else {
      const d = stringDigest(s);
      this.word(LONG_STRING);
      this.word(d.hi);
      this.word(d.lo);
    }
  }

  /** A string's length and characters, two to a word. */
  characters(s: string): void {
    this.word(s.length);
    const end = s.length - 1;
    let i = 0;
    for (; i < end; i += 2) this.word(s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
    if (i === end) this.word(s.charCodeAt(i));
  }

  number(x: number): void {
    // JSON writes -0 as 0 and every non-finite number as null.
    if ((x | 0) === x) {
      this.word(INT);
      this.word(x);
    } else if (!Number.isFinite(x)) this.word(NULL);
    else {
      floats[0] = x;
      this.word(FLOAT);
      this.word(floatWords[0]!);
      this.word(floatWords[1]!);
    }
  }

  digest(d: Digest): void {
    this.word(d.hi);
    this.word(d.lo);
  }

  /** A value as JSON.stringify would write it: `undefined` (and functions) as null, as in an array. */
  value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.word(v ? TRUE : FALSE);
        return;
      case 'object':
        if (v === null) this.word(NULL);
        else this.digest(digestOf(v));
        return;
      default:
        this.word(NULL);
    }
  }

  done(): Digest {
    let a = this.a ^ this.n;
    let b = this.b ^ this.n;
    a = (a + b) | 0;
    b = (b + a) | 0;
    a = fmix(a);
    b = fmix(b);
    a = (a + b) | 0;
    b = (b + a) | 0;
    return { hi: a >>> 0, lo: b >>> 0 };
  }
}

const digests = new WeakMap<object, Digest>();
/** Words fed to every digest so far: what an object's digest cost, parts included. */
let fed = 0;
/** An object's digest is kept when it cost at least this many words. A WeakMap entry costs more than
 *  hashing a small object again, and a map that holds every object of a deep exploration slows
 *  every lookup and collection: keeping only the big ones was ×1.1 at depth 4 and more at depth 5. */
const KEPT_FROM_WORDS = 200;
/** Strings' own digests (property names, and string values longer than SHORT_STRING), kept: a state
 *  holds the same few names, methods, headers and versions over and over (an exploration of the
 *  records' cell to depth 3 hashed 2.2 million strings, 161 distinct), and a lookup costs less than
 *  their characters. Bounded: data can bring new strings without end (ids as keys, stream ids). */
const strings = new Map<string, Digest>();
const STRINGS_KEPT = 1 << 16;
/** Up to this many characters a string value is hashed inline (one or two words): less than a lookup. */
const SHORT_STRING = 4;

function stringDigest(s: string): Digest {
  let d = strings.get(s);
  if (d === undefined) {
    const h = new Hasher();
    h.characters(s);
    d = h.done();
    if (strings.size < STRINGS_KEPT) strings.set(s, d);
  }
  return d;
}

/** The digest of an immutable object or array, kept if it was costly (KEPT_FROM_WORDS). */
export function digestOf(o: object): Digest {
  return keptDigest(o, KEPT);
}

/** `o`'s kept digest, or its digest with its parts by `parts`, kept if it was costly. */
function keptDigest(o: object, parts: Parts): Digest {
  let d = digests.get(o);
  if (d === undefined) {
    const before = fed;
    const h = new Hasher();
    feed(h, o, parts);
    d = h.done();
    if (fed - before >= KEPT_FROM_WORDS) digests.set(o, d);
  }
  return d;
}

/** The same digest, computed afresh, parts included (nothing kept): what tests compare `digestOf` with. */
export function freshDigestOf(o: object): Digest {
  const h = new Hasher();
  feed(h, o, FRESH);
  return h.done();
}

/** Where `feed` gets the digests of a value's object parts and property names, by their index among
 *  the value's parts: kept (digestOf), afresh, or remembered by their place in a state (Place). */
interface Parts {
  part(part: object, index: number): Digest;
  key(name: string, index: number): Digest;
}
const KEPT: Parts = { part: (v) => digestOf(v), key: (k) => stringDigest(k) };
const FRESH: Parts = { part: (v) => freshDigestOf(v), key: (k) => stringDigest(k) };

/** An object's or array's own encoding, its object parts and names by `parts`. */
function feed(h: Hasher, o: object, parts: Parts): void {
  if (typeof (o as { toJSON?: unknown }).toJSON === 'function') {
    h.word(TO_JSON);
    h.characters(JSON.stringify(o));
  } else if (Array.isArray(o)) {
    h.word(ARRAY);
    h.word(o.length);
    for (let i = 0; i < o.length; i++) {
      const v: unknown = o[i];
      if (typeof v !== 'object' || v === null) h.value(v);
      else h.digest(parts.part(v, i));
    }
  } else {
    h.word(OBJECT);
    let n = 0;
    // A policy side that counts its reads (world/knob-reads.ts) by its plain side: the same fields and
    // values, so the same digest, and a state's fingerprint is not a read of every knob.
    const record = ((o as { [UNCOUNTED]?: object })[UNCOUNTED] ?? o) as Record<string, unknown>;
    for (const k in record) {
      const v = record[k];
      // JSON leaves out properties whose value is undefined, a function or a symbol.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      h.digest(parts.key(k, n));
      if (typeof v !== 'object' || v === null) h.value(v);
      else h.digest(parts.part(v, n));
      n++;
    }
    h.word(n);
  }
}

/**
 * One place in a state's tree of values (a machine's context, a context's field, a field's element…),
 * remembering the last object seen there and its digest, and the names of that object's fields. A
 * state is mostly the last state's objects (immutable data, shared), and where a part is new, most of
 * its own parts are not: one identity check at each place replaces hashing them again (an object under
 * KEPT_FROM_WORDS is not kept by digestOf, and was hashed afresh in every state that held it). Places
 * are shared by one exploration's worlds (world/fork.ts). The digests are digestOf's.
 */
export class Place {
  private object: object | null = null;
  private kept: Digest = { hi: 0, lo: 0 };
  private readonly children: Place[] = [];
  private readonly names: string[] = [];
  private readonly nameDigests: Digest[] = [];

  /** digestOf(o), its parts by their places under this one. */
  of(o: object): Digest {
    if (this.object === o) return this.kept;
    const d = keptDigest(o, this);
    this.object = o;
    this.kept = d;
    return d;
  }

  part(part: object, index: number): Digest {
    let child = this.children[index];
    if (child === undefined) this.children[index] = child = new Place();
    return child.of(part);
  }

  key(name: string, index: number): Digest {
    if (this.names[index] === name) return this.nameDigests[index]!;
    const d = stringDigest(name);
    this.names[index] = name;
    this.nameDigests[index] = d;
    return d;
  }
}
