/** Numbers in [0, 1) from a 32-bit seed; the same seed gives the same sequence. */
export declare function seededRandom(seed: number): () => number;
