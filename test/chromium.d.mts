export const chromiumPath: string;
export const chromiumArgs: string[];
export function missingChromium(): string | undefined;
