// Types of bin/build-digest.js (plain JavaScript: bin/ runs before any TypeScript loader).
export declare const DIGEST_FILE: string;
export declare function buildInputs(root: string): string[];
export declare function buildDigest(root: string): string | null;
export declare function distIsFresh(root: string): boolean;
