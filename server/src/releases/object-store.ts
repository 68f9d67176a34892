import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * Where site releases are kept: the builder writes them, every gate reads them. Keys are
 * the release module's own (`blobs/<sha256>`, `releases/<sha256>.json`), never a name
 * that came from a package or a request.
 */
export interface ObjectStore {
  /** Where it is, for logs and /admin (a folder, or `s3://bucket/prefix`). */
  readonly where: string;
  get(key: string): Promise<Buffer | null>;
  put(key: string, body: Buffer): Promise<void>;
  has(key: string): Promise<boolean>;
  /** Every key that starts with `prefix`. */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
}

const KEY = /^(blobs\/[0-9a-f]{64}|releases\/[0-9a-f]{64}\.json)$/;

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a key of the site release store: ${key}`);
  return key;
}

/** A folder on disk behind the store's interface (`npm start`, one machine). Each write lands whole or not at all. */
export class FolderStore implements ObjectStore {
  constructor(private readonly root: string) {}

  get where(): string {
    return this.root;
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(join(this.root, checkKey(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer): Promise<void> {
    const path = join(this.root, checkKey(key));
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, body);
    await rename(partial, path);
  }

  async has(key: string): Promise<boolean> {
    try {
      await stat(join(this.root, checkKey(key)));
      return true;
    } catch {
      return false;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const folder = prefix.split('/')[0] ?? '';
    let names: string[];
    try {
      names = await readdir(join(this.root, folder), { recursive: true });
    } catch {
      return [];
    }
    return names
      .map((name) =>
        relative(this.root, join(this.root, folder, name))
          .split(sep)
          .join('/'),
      )
      .filter((key) => key.startsWith(prefix) && KEY.test(key));
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(join(this.root, checkKey(key)), { force: true })));
  }
}

export interface S3Location {
  bucket: string;
  /** A folder of the bucket the keys go under ('' for its root). */
  prefix: string;
  /** Another service than AWS S3 (Google Cloud Storage's XML API, R2, MinIO, s3rver). */
  endpoint?: string;
  region: string;
  /** Path-style addresses (`endpoint/bucket/key`), which MinIO and s3rver need. */
  forcePathStyle: boolean;
  /** Without these, the SDK's own chain (AWS_ACCESS_KEY_ID, a role, a profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Any service that speaks the S3 API, through AWS's own SDK. */
export class S3Store implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      ...(location.credentials ? { credentials: location.credentials } : {}),
      // A store that does not answer fails the call within seconds; the caller retries later.
      requestHandler: { requestTimeout: 30_000, connectionTimeout: 5_000 },
      maxAttempts: 3,
      // Checksums only where the API requires them: the SDK's newer defaults (CRC32 trailers on
      // every upload) are not understood by every service that speaks S3.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get where(): string {
    return `s3://${this.location.bucket}/${this.location.prefix}`;
  }

  private key(key: string): string {
    return `${this.location.prefix}${checkKey(key)}`;
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
      return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
    } catch (error) {
      if (error instanceof NoSuchKey || error instanceof NotFound) return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: this.key(key), Body: body }));
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return false;
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.location.bucket,
          Prefix: `${this.location.prefix}${prefix}`,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? [])
        if (object.Key) keys.push(object.Key.slice(this.location.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.filter((key) => KEY.test(key));
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000);
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.location.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.key(key) })), Quiet: true },
        }),
      );
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/**
 * The store a setting names: `s3://bucket/prefix` (with the S3 settings beside it) or a
 * folder; null for none.
 */
export function openObjectStore(
  setting: string | null,
  s3: Omit<S3Location, 'bucket' | 'prefix'>,
  cwd: string,
): ObjectStore | null {
  if (setting === null) return null;
  const url = /^s3:\/\/([^/]+)\/?(.*)$/.exec(setting);
  if (!url) return new FolderStore(resolve(cwd, setting));
  const prefix = url[2] ? `${url[2].replace(/\/+$/, '')}/` : '';
  return new S3Store({ ...s3, bucket: url[1] as string, prefix });
}
