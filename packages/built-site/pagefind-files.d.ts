export declare const GIVEN_FILES_VERSION: string;
export declare function withGivenFiles(script: string): string;
