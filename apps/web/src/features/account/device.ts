/** A person's words for a session's user agent: browser and system, or a program. */
export interface DeviceDescription {
  browser: string | null;
  os: string | null;
  /** Not a browser: the CLI, a script, an API client. */
  program: string | null;
}

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // "HeadlessChrome/…" too.
  [/(CriOS|Chrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const PROGRAMS: Array<[RegExp, string]> = [
  [/^ferry\b/i, 'Ferry CLI'],
  [/^(node|undici)\b/i, 'Node.js'],
  [/^curl\//i, 'curl'],
  [/^python/i, 'Python'],
];

export function describeUserAgent(userAgent: string | null): DeviceDescription {
  const ua = userAgent?.trim() ?? '';
  const program = PROGRAMS.find(([re]) => re.test(ua))?.[1] ?? null;
  if (program) return { browser: null, os: null, program };
  return {
    browser: BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null,
    os: SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null,
    program: null,
  };
}
