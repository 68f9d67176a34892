/**
 * Reads a Pagefind bundle file by file, the way its browser script does: the entry names
 * each language's metadata, the metadata names the page fragments, index chunks and
 * filters. Every file but the entry is gzip with a `pagefind_dcd` signature in front of
 * its content; fragments are JSON, the rest CBOR.
 */
import { gunzipSync } from 'node:zlib';

const SIGNATURE = 'pagefind_dcd';

/** A file's content without its compression and signature. */
export function decompress(bytes: Buffer): Buffer {
  // 1f 8b: gzip. A server that sent it with Content-Encoding may have unpacked it already.
  const plain = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return plain.subarray(0, SIGNATURE.length).toString('latin1') === SIGNATURE
    ? plain.subarray(SIGNATURE.length)
    : plain;
}

/** Decodes the CBOR that Pagefind writes (minicbor: arrays, maps, strings, numbers). */
export function decodeCbor(bytes: Buffer): unknown {
  let at = 0;
  const length = (info: number): number => {
    if (info < 24) return info;
    const size = { 24: 1, 25: 2, 26: 4, 27: 8 }[info];
    if (size === undefined) throw new Error(`CBOR: unsupported length ${info} at ${at}`);
    const value = size === 8 ? Number(bytes.readBigUInt64BE(at)) : bytes.readUIntBE(at, size);
    at += size;
    return value;
  };
  const item = (): unknown => {
    const head = bytes[at++];
    if (head === undefined) throw new Error('CBOR: unexpected end');
    const major = head >> 5;
    const info = head & 31;
    if (major === 7) {
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22 || info === 23) return null;
      if (info === 26) return ((at += 4), bytes.readFloatBE(at - 4));
      if (info === 27) return ((at += 8), bytes.readDoubleBE(at - 8));
      throw new Error(`CBOR: unsupported simple value ${info}`);
    }
    if (info === 31) {
      // Indefinite length: items until the break byte.
      const items: unknown[] = [];
      while (bytes[at] !== 0xff) items.push(item());
      at++;
      return major === 3 ? items.join('') : items;
    }
    const n = length(info);
    switch (major) {
      case 0:
        return n;
      case 1:
        return -1 - n;
      case 2:
        return ((at += n), bytes.subarray(at - n, at));
      case 3:
        return ((at += n), bytes.subarray(at - n, at).toString('utf8'));
      case 4:
        return Array.from({ length: n }, item);
      case 5:
        return Object.fromEntries(Array.from({ length: n }, () => [String(item()), item()]));
      default:
        // Tag: its content follows.
        return item();
    }
  };
  return item();
}

/** Every string in a decoded value (an index chunk's words, the metadata's hashes). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

export interface Fragment {
  url: string;
  content: string;
  meta: Record<string, string>;
}

export interface BundleFiles {
  /** Each file read, by its path inside the bundle, with the strings found in it. */
  texts: Map<string, string>;
  fragments: Fragment[];
}

const asArray = (value: unknown, what: string): unknown[] => {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
};
const asString = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new Error(`${what} is not a string`);
  return value;
};

/**
 * Every file the bundle's entry names, directly or through its metadata, read with `read`
 * (from disk, or over HTTP as a visitor's browser would).
 */
export async function readBundle(read: (path: string) => Promise<Buffer>): Promise<BundleFiles> {
  const texts = new Map<string, string>();
  const fragments: Fragment[] = [];
  const entryText = (await read('pagefind-entry.json')).toString('utf8');
  texts.set('pagefind-entry.json', entryText);
  const entry = JSON.parse(entryText) as { languages: Record<string, { hash: string }> };
  for (const { hash } of Object.values(entry.languages)) {
    const metaPath = `pagefind.${hash}.pf_meta`;
    const meta = asArray(decodeCbor(decompress(await read(metaPath))), metaPath);
    texts.set(metaPath, stringsIn(meta).join('\n'));
    // [version, pages [hash, words], index chunks [from, to, hash], filters [name, hash], sorts]
    const pages = asArray(meta[1], 'pages').map((page) => asString(asArray(page, 'page')[0], 'page hash'));
    const chunks = asArray(meta[2], 'index chunks').map((chunk) => asString(asArray(chunk, 'chunk')[2], 'chunk hash'));
    const filters = asArray(meta[3] ?? [], 'filters').map((filter) =>
      asString(asArray(filter, 'filter')[1], 'filter hash'),
    );
    for (const page of pages) {
      const path = `fragment/${page}.pf_fragment`;
      const fragment = JSON.parse(decompress(await read(path)).toString('utf8')) as Fragment;
      // Its values (URL, text, title, headings), not the format's own keys.
      texts.set(path, stringsIn(fragment).join('\n'));
      fragments.push(fragment);
    }
    for (const [folder, hashes, suffix] of [
      ['index', chunks, 'pf_index'],
      ['filter', filters, 'pf_filter'],
    ] as const) {
      for (const chunk of hashes) {
        const path = `${folder}/${chunk}.${suffix}`;
        texts.set(path, stringsIn(decodeCbor(decompress(await read(path)))).join('\n'));
      }
    }
  }
  return { texts, fragments };
}
