// /tools/ip: the visitor's address and place from this site's own databases,
// everything the browser tells about itself, and — beyond the usual IP pages — a consistency
// report, a WebRTC local-address check and the emulator's readiness. Nothing leaves the site.
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';
import { useNearViewport } from '../../../lib/useNearViewport';
import { Skeleton, SkeletonBox } from '../../../components/ui/Skeleton';
import { useBrowserInfo, useIpInfo, useReadiness, useWebRtcCheck, ipKeys } from './api';
import { COPIED_ALERT, IP_NS } from './i18n';
import './ip.css';
import {
  BrowserPanel,
  ConsistencyPanel,
  NetworkRows,
  PerformancePanel,
  ReadinessPanel,
  Rows,
  isUnknown,
  Section,
  WebApiPanel,
  WebRtcPanel,
} from './Panels';
import { consistencyRows, exportData, exportFileName, flagFromCode, shareText } from './report';

/** Spec §9: the copy confirmation shows for 2 seconds. */
export const COPY_CONFIRM_MS = 2000;

/** The local time as ru-RU writes it ("09:05:03"), without building an Intl date formatter. */
export const ruTime = (ms: number) => {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

export default function IpPage() {
  const { t } = useTranslation(IP_NS);
  const client = useQueryClient();
  const ip = useIpInfo();
  const browser = useBrowserInfo();
  const webrtc = useWebRtcCheck();
  // The readiness checks open an audio output and a WebGL context (tens of milliseconds of main
  // thread on a phone); they run when their panel, far below the fold, comes near the viewport.
  const [readinessRef, readinessNear] = useNearViewport();
  const readiness = useReadiness(readinessNear);
  const [copied, setCopied] = useState(false);
  const copyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(copyTimer.current), []);

  // The panels' first render is the page's biggest (a few hundred rows, most of them below the
  // fold): it follows the answers as a deferred render, which React does in slices and yields
  // between, instead of in the one task that takes the answers (~35 ms unthrottled, a long task
  // on a phone). Until it is done the skeleton stays, so the panels still come all at once.
  const answered = useDeferredValue(!ip.isPending && !browser.isPending);
  const loading = ip.isFetching || browser.isFetching;
  const haveData = !!ip.data && !!browser.data;
  const rows = useMemo(
    () => (ip.data && browser.data ? consistencyRows(ip.data, browser.data) : []),
    [ip.data, browser.data],
  );

  const refresh = () => {
    void client.refetchQueries({ queryKey: ipKeys.self, exact: true });
    void client.refetchQueries({ queryKey: ipKeys.browser, exact: true });
  };

  const doExport = () => {
    if (!ip.data || !browser.data) return;
    const now = new Date();
    const blob = new Blob([JSON.stringify(exportData(ip.data, browser.data, now), null, 2)], {
      type: 'application/json',
    });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = exportFileName(now);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const doShare = async () => {
    if (!ip.data || !browser.data) return;
    const text = shareText(ip.data, browser.data);
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ title: t('title'), text });
      } else {
        await navigator.clipboard.writeText(text);
        window.alert(COPIED_ALERT);
      }
    } catch (err) {
      // Spec §8: copy or share failures are only logged.
      console.warn('[ip] share failed', err);
    }
  };

  const copyIp = async () => {
    if (!ip.data) return;
    try {
      await navigator.clipboard.writeText(ip.data.ip);
      setCopied(true);
      clearTimeout(copyTimer.current);
      copyTimer.current = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
    } catch (err) {
      console.warn('[ip] copy failed', err);
    }
  };

  return (
    <Page title={t('title')} lead={t('subtitle')} className="ip-page">
      <div className="ip-toolbar">
        <button type="button" className="btn btn--primary" onClick={refresh} disabled={loading}>
          {t('refresh')}
        </button>
        <button type="button" className="btn" onClick={doExport} disabled={!haveData}>
          {t('export')}
        </button>
        <button type="button" className="btn" onClick={() => void doShare()} disabled={!haveData}>
          {t('share')}
        </button>
        {/* Its line is there before the time is: the time does not wrap the toolbar and push the panels. */}
        {ip.isSuccess ? (
          <span className="ip-updated" data-testid="last-updated">
            {t('lastUpdated', { time: ruTime(ip.dataUpdatedAt) })}
          </span>
        ) : (
          <span className="ip-updated" aria-hidden="true" />
        )}
      </div>

      {/* The panels come together once the address and the browser's report have answered:
          arriving one by one they pushed each other about the grid. The readiness
          panel is there with them, its rows saying Checking… until its checks have run. */}
      {!answered || ip.isPending || browser.isPending ? (
        <Skeleton label={t('loading')} className="ip-skeleton">
          <SkeletonBox className="ip-skeleton__card" />
          <SkeletonBox className="ip-skeleton__card" />
          <SkeletonBox className="ip-skeleton__card" />
        </Skeleton>
      ) : (
        <div className="ip-grid">
          <Section id="ip-data" title={t('ipBlock.heading')}>
            {ip.isError ? (
              <div role="alert" className="ip-error">
                <h3>{t('errorHeading')}</h3>
                <p>{t('errorMessage')}</p>
                <p className="ip-hint">{ip.error.message}</p>
              </div>
            ) : (
              <>
                <div className="ip-address">
                  <span className="ip-address__label">{t('ipBlock.ip')}</span>
                  <span className="ip-address__value" data-testid="ip-address">
                    {isUnknown(ip.data.ip) ? t('unknownValue') : ip.data.ip}
                  </span>
                  <button type="button" className="btn btn--ghost" onClick={() => void copyIp()} aria-label={t('ipBlock.copy')}>
                    {copied ? <span aria-label={t('ipBlock.copied')}>✓</span> : <CopyIcon />}
                  </button>
                </div>
                <Rows
                  rows={[
                    [
                      t('ipBlock.country'),
                      <span key="c">
                        <span className="ip-flag" aria-hidden="true">
                          {flagFromCode(ip.data.countryCode)}
                        </span>{' '}
                        {isUnknown(ip.data.country) ? t('unknownValue') : ip.data.country}
                      </span>,
                    ],
                    [t('ipBlock.city'), ip.data.city || 'Unknown'],
                  ]}
                />
                <NetworkRows ip={ip.data} requestTime={ruTime(ip.dataUpdatedAt)} />
                <p className="ip-hint">{t('ipBlock.source')}</p>
              </>
            )}
          </Section>
          {browser.data ? (
            <>
              <BrowserPanel info={browser.data} />
              <PerformancePanel info={browser.data} />
              <WebApiPanel info={browser.data} />
            </>
          ) : null}
          {rows.length ? <ConsistencyPanel rows={rows} /> : null}
          <WebRtcPanel result={webrtc.data} pending={webrtc.isPending} />
          <ReadinessPanel r={readiness.data} ref={readinessRef} />
        </div>
      )}
    </Page>
  );
}

/**
 * Two overlapping pages, the usual "copy" picture, drawn here: the text sign for it (⧉) is missing
 * from common fonts (Debian's DejaVu among them) and showed as an empty box.
 */
function CopyIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </svg>
  );
}
