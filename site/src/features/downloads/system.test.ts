import { describe, expect, it } from 'vitest';
import type { DownloadFile } from './api';
import { detectSystem, pickFile, systemFromHints, systemFromUserAgent } from './system';

const WIN10_X64 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const WIN7_32 = 'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0 Safari/537.36';
const WIN_ARM = 'Mozilla/5.0 (Windows NT 10.0; ARM64) AppleWebKit/537.36 Chrome/126.0';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';

describe('systemFromUserAgent', () => {
  it.each([
    [WIN10_X64, { os: 'windows', version: '10', arch: 'x64' }],
    [WIN7_32, { os: 'windows', version: '7', arch: 'x86' }],
    [WIN_ARM, { os: 'windows', version: '10', arch: 'arm64' }],
    [MAC, { os: 'macos', version: null, arch: null }],
    [LINUX, { os: 'linux', version: null, arch: 'x64' }],
    [ANDROID, { os: 'android', version: null, arch: null }],
    ['curl/8.5', { os: 'other', version: null, arch: null }],
  ])('%s', (ua, want) => {
    expect(systemFromUserAgent(ua)).toEqual(want);
  });
});

describe('systemFromHints', () => {
  const base = systemFromUserAgent(WIN10_X64);
  it('tells Windows 11 from 10 by the platform version', () => {
    expect(systemFromHints(base, { platform: 'Windows', platformVersion: '15.0.0', architecture: 'x86', bitness: '64' })).toEqual({
      os: 'windows', version: '11', arch: 'x64',
    });
    expect(systemFromHints(base, { platform: 'Windows', platformVersion: '10.0.0' }).version).toBe('10');
  });
  it('reads the architecture', () => {
    expect(systemFromHints(base, { platform: 'Windows', platformVersion: '14.0.0', architecture: 'arm', bitness: '64' }).arch).toBe('arm64');
    expect(systemFromHints(base, { platform: 'Windows', architecture: 'x86', bitness: '32' }).arch).toBe('x86');
  });
  it('uses the hints through navigator.userAgentData', async () => {
    const nav = {
      userAgent: WIN10_X64,
      userAgentData: { getHighEntropyValues: () => Promise.resolve({ platform: 'Windows', platformVersion: '13.0.0', architecture: 'x86', bitness: '64' }) },
    } as unknown as Navigator;
    expect(await detectSystem(nav)).toEqual({ os: 'windows', version: '11', arch: 'x64' });
  });
  it('falls back to the User-Agent when the hints fail', async () => {
    const nav = { userAgent: WIN7_32, userAgentData: { getHighEntropyValues: () => Promise.reject(new Error('no')) } } as unknown as Navigator;
    expect(await detectSystem(nav)).toEqual({ os: 'windows', version: '7', arch: 'x86' });
  });
});

const file = (id: string, system: DownloadFile['system'], arch: DownloadFile['arch']): DownloadFile => ({
  id, name: id, system, arch, size: 1, sha256: '', url: `/f/${id}`, downloads: 0,
});

describe('pickFile', () => {
  const files = [file('win32', 'windows', 'x86'), file('win64', 'windows', 'x64'), file('linux', 'linux', 'x64'), file('zip', 'any', 'any')];
  it.each([
    [WIN10_X64, 'win64'],
    [WIN7_32, 'win32'],
    [LINUX, 'linux'],
    [MAC, 'zip'],
  ])('%s gets %s', (ua, want) => {
    expect(pickFile(files, systemFromUserAgent(ua))?.id).toBe(want);
  });
  it('gives 64-bit Windows the 32-bit build when there is no other', () => {
    expect(pickFile([file('win32', 'windows', 'x86')], systemFromUserAgent(WIN10_X64))?.id).toBe('win32');
  });
  it('finds nothing for a system without a file', () => {
    expect(pickFile([file('win64', 'windows', 'x64')], systemFromUserAgent(MAC))).toBeNull();
  });
});
