export declare const S3RVER_CREDENTIALS: { accessKeyId: string; secretAccessKey: string };

export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  /** Where it keeps its objects. */
  directory: string;
  stop(): Promise<void>;
}

export declare function startS3rver(options?: { bucket?: string }): Promise<RunningS3rver>;
