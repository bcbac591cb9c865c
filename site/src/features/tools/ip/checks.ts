// Checks the IP report runs in the browser beyond the collector: does WebRTC expose local
// addresses, and is this browser ready for the site's emulator.
import { formatBytes } from './browserInfo';

export interface WebRtcResult {
  supported: boolean;
  /** Raw local addresses seen in host candidates (the leak). */
  addresses: string[];
  /** Host candidates hidden behind mDNS names (xxxx.local): not a leak. */
  mdns: number;
}

/** The connection address of an ICE candidate line ("candidate:… 1 udp 2122 ADDR PORT typ host"). */
export function parseCandidate(line: string): { address: string; type: string } | null {
  const parts = line.replace(/^a=/, '').trim().split(/\s+/);
  const typ = parts.indexOf('typ');
  if (parts.length < 8 || typ < 0) return null;
  return { address: parts[4], type: parts[typ + 1] };
}

/** Sorts host candidates into raw addresses and mDNS-hidden ones. */
export function summariseCandidates(lines: string[]): Omit<WebRtcResult, 'supported'> {
  const addresses = new Set<string>();
  let mdns = 0;
  for (const line of lines) {
    const c = parseCandidate(line);
    if (!c || c.type !== 'host') continue;
    if (c.address.endsWith('.local')) mdns++;
    else addresses.add(c.address);
  }
  return { addresses: [...addresses], mdns };
}

/**
 * Gathers ICE candidates of a local data channel with no STUN or TURN server, so nothing is
 * sent anywhere: only host candidates can appear, and they show whether the browser reveals
 * local network addresses to any page.
 */
export async function checkWebRtc(timeoutMs = 3000): Promise<WebRtcResult> {
  const PC = (globalThis as { RTCPeerConnection?: typeof RTCPeerConnection }).RTCPeerConnection;
  if (!PC) return { supported: false, addresses: [], mdns: 0 };
  const pc = new PC({ iceServers: [] });
  const lines: string[] = [];
  try {
    pc.createDataChannel('probe');
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      pc.onicecandidate = (e) => {
        if (e.candidate?.candidate) lines.push(e.candidate.candidate);
        else {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    await pc.setLocalDescription(await pc.createOffer());
    await done;
  } finally {
    pc.close();
  }
  return { supported: true, ...summariseCandidates(lines) };
}

export interface Readiness {
  webAssembly: boolean;
  webGL2: boolean;
  audioOutput: boolean;
  gamepads: { supported: boolean; connected: number };
  storage: { supported: boolean; quota: string; usage: string };
}

// The smallest valid module: magic and version.
const WASM_HEADER = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** What the emulator needs: WebAssembly, WebGL2, an audio output, gamepads, storage room. */
export async function checkReadiness(g: typeof globalThis = globalThis): Promise<Readiness> {
  let webAssembly = false;
  try {
    webAssembly = typeof g.WebAssembly === 'object' && g.WebAssembly.validate(WASM_HEADER);
  } catch {
    /* blocked */
  }
  let webGL2 = false;
  try {
    webGL2 = !!g.document?.createElement('canvas').getContext('webgl2');
  } catch {
    /* no WebGL2 */
  }
  let audioOutput = false;
  const AC = (g as { AudioContext?: typeof AudioContext }).AudioContext;
  if (AC) {
    try {
      const ctx = new AC();
      audioOutput = ctx.destination.maxChannelCount > 0;
      void ctx.close();
    } catch {
      /* no audio device */
    }
  }
  const nav = g.navigator;
  const gamepads = { supported: typeof nav?.getGamepads === 'function', connected: 0 };
  if (gamepads.supported) {
    try {
      gamepads.connected = Array.from(nav.getGamepads()).filter(Boolean).length;
    } catch {
      /* blocked by permissions policy */
    }
  }
  const storage = { supported: false, quota: 'unknown', usage: 'unknown' };
  if (typeof nav?.storage?.estimate === 'function') {
    try {
      const est = await nav.storage.estimate();
      storage.supported = true;
      storage.quota = formatBytes(est.quota);
      storage.usage = formatBytes(est.usage);
    } catch {
      /* unavailable */
    }
  }
  return { webAssembly, webGL2, audioOutput, gamepads, storage };
}
