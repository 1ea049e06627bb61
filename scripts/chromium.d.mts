// Types of scripts/chromium.mjs for playwright.config.ts and the tests.
export declare const CHROMIUM: string;
export declare const PLAYWRIGHT_DISABLED_FEATURES: string[];
export declare const CHROMIUM_ARGS: string[];
