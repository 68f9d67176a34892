export interface HookSource {
  id: string;
  kind: string;
  package?: string;
  repository?: string;
}
export declare const hookSecretFile: (dataFolder?: string) => string;
export declare function releaseHook(
  source: HookSource,
  now?: Date,
): { event: string; payload: Record<string, unknown> };
export declare function signedHook(
  hook: { event: string; payload: Record<string, unknown> },
  secret: string,
): Promise<{ body: string; headers: Record<string, string> }>;
