// Types of scripts/build.mjs.
export declare const COPIED: string[];
