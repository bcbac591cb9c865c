// Which file of a release suits the visitor: their system and architecture, read from User-Agent
// Client Hints where the browser gives them (Chromium: the platform version tells Windows 11 from
// 10, which the User-Agent string cannot) and from the User-Agent string otherwise.
import type { Arch, DownloadFile, FileSystem } from './api';

export type OS = Exclude<FileSystem, 'any' | 'dos'> | 'ios' | 'other';

export interface VisitorSystem {
  os: OS;
  /** The Windows version ("11", "10", "8.1", "8", "7", "XP") when known. */
  version: string | null;
  arch: Exclude<Arch, 'any'> | null;
}

const WINDOWS_NT: Record<string, string> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7', '6.0': 'Vista', '5.1': 'XP', '5.2': 'XP' };

/** The visitor's system as the User-Agent string tells it. */
export function systemFromUserAgent(ua: string): VisitorSystem {
  const win = /Windows NT (\d+\.\d+)/.exec(ua);
  if (win) {
    const arch = /ARM64|aarch64/i.test(ua) ? 'arm64' : /Win64|WOW64|x64|x86_64|amd64/i.test(ua) ? 'x64' : 'x86';
    return { os: 'windows', version: WINDOWS_NT[win[1]] ?? null, arch };
  }
  if (/Android/i.test(ua)) return { os: 'android', version: null, arch: /aarch64|arm64/i.test(ua) ? 'arm64' : null };
  if (/iPhone|iPad|iPod/i.test(ua)) return { os: 'ios', version: null, arch: 'arm64' };
  if (/Mac OS X|Macintosh/i.test(ua)) return { os: 'macos', version: null, arch: null };
  if (/Linux|X11/i.test(ua)) {
    return { os: 'linux', version: null, arch: /aarch64|arm64/i.test(ua) ? 'arm64' : /x86_64|amd64/i.test(ua) ? 'x64' : /i[3-6]86/.test(ua) ? 'x86' : null };
  }
  return { os: 'other', version: null, arch: null };
}

/** The high-entropy Client Hints this page asks for. */
export interface ClientHints {
  platform?: string;
  platformVersion?: string;
  architecture?: string;
  bitness?: string;
}

/** Refines a User-Agent reading with Client Hints (Windows 11 is platform version 13 and up). */
export function systemFromHints(base: VisitorSystem, h: ClientHints): VisitorSystem {
  const out = { ...base };
  if (h.platform === 'Windows') {
    out.os = 'windows';
    const major = Number.parseInt(h.platformVersion ?? '', 10);
    if (Number.isFinite(major)) out.version = major >= 13 ? '11' : major > 0 ? '10' : (base.version ?? null);
  } else if (h.platform === 'macOS') out.os = 'macos';
  else if (h.platform === 'Linux' && base.os !== 'android') out.os = 'linux';
  if (h.architecture === 'arm') out.arch = h.bitness === '32' ? null : 'arm64';
  else if (h.architecture === 'x86') out.arch = h.bitness === '32' ? 'x86' : 'x64';
  return out;
}

interface UAData {
  getHighEntropyValues?: (hints: string[]) => Promise<ClientHints>;
}

/** The visitor's system: the User-Agent string, refined by Client Hints when there are any. */
export async function detectSystem(nav: Navigator = navigator): Promise<VisitorSystem> {
  const base = systemFromUserAgent(nav.userAgent);
  const data = (nav as Navigator & { userAgentData?: UAData }).userAgentData;
  if (!data?.getHighEntropyValues) return base;
  try {
    return systemFromHints(base, await data.getHighEntropyValues(['platform', 'platformVersion', 'architecture', 'bitness']));
  } catch {
    return base;
  }
}

/**
 * The file of a release for the visitor: one built for their system and architecture; else for
 * their system and any architecture (on 64-bit Windows a 32-bit build runs too); else one for any
 * system. Null when none suits (every file stays reachable by hand).
 */
export function pickFile(files: readonly DownloadFile[], sys: VisitorSystem): DownloadFile | null {
  const os = sys.os;
  const onOS = files.filter((f) => f.system === os);
  const archOrder: Arch[] = sys.arch === 'x64' ? ['x64', 'any', 'x86'] : sys.arch ? [sys.arch, 'any'] : ['any', 'x64', 'x86', 'arm64'];
  for (const a of archOrder) {
    const f = onOS.find((x) => x.arch === a);
    if (f) return f;
  }
  return files.find((f) => f.system === 'any') ?? null;
}
