/** A port free on this machine now, and never handed out before by this process. */
export declare function freePort(): Promise<number>;
/** `count` distinct free ports. */
export declare function freePorts(count: number): Promise<number[]>;
/** Resolves when `port` on 127.0.0.1 can be bound, rejects with a message naming `setting` otherwise. */
export declare function assertPortFree(port: number, setting: string): Promise<void>;
