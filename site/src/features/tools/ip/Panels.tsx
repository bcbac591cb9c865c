// The IP report's blocks. Each takes its data and renders it; the page owns the fetching.
// The big ones are memo'd: the page renders again when the WebRTC and readiness checks answer,
// and the browser's report, the address and the consistency rows have not changed by then (the
// query cache keeps their objects), so those panels need not be rendered again.
import { memo, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { IpInfo } from '../../../lib/ipInfo';
import { formatOffset, localFigure, supportSummary, type BrowserInfo } from './browserInfo';
import type { Readiness, WebRtcResult } from './checks';
import { IP_NS } from './i18n';
import type { ConsistencyRow } from './report';

/**
 * Whether a value is the report's "not known" (the lookup's "Unknown", the browser part's
 * "unknown", nothing): the data keeps those words (exports, the copied report), the page says it
 * in the reader's language.
 */
export const isUnknown = (v: unknown): boolean => v === null || v === undefined || v === '' || v === 'Unknown' || v === 'unknown';

export function Rows({ rows }: { rows: [string, ReactNode][] }) {
  const { t } = useTranslation(IP_NS);
  return (
    <dl className="ip-rows">
      {rows.map(([label, value]) => (
        <div key={label} className="ip-row">
          <dt>{label}</dt>
          <dd>{typeof value === 'string' && isUnknown(value) ? t('unknownValue') : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Parts of one value ("Linux" and its version): the unknown parts are left out, and a value with
 * no known part is the report's "unknown" (which Rows says in the reader's language) — never
 * "Linux unknown" or "unknown unknown".
 */
export const joinKnown = (separator: string, ...parts: unknown[]): string =>
  parts.filter((p) => !isUnknown(p)).join(separator) || 'unknown';

const show = (v: unknown): string => (v === null || v === undefined || v === '' ? 'Unknown' : String(v));

export function Section({ title, children, id, ref }: { title: string; children: ReactNode; id: string; ref?: Ref<HTMLElement> }) {
  return (
    <section className="ip-card" aria-labelledby={id} ref={ref}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export const NetworkRows = memo(function NetworkRows({ ip, requestTime }: { ip: IpInfo; requestTime: string }) {
  const { t } = useTranslation(IP_NS);
  const coords = typeof ip.latitude === 'number' && typeof ip.longitude === 'number' ? `${ip.latitude}, ${ip.longitude}` : 'Unknown';
  return (
    <>
      <h3>{t('ipBlock.geolocation')}</h3>
      <Rows
        rows={[
          [t('ipBlock.region'), show(ip.region)],
          [t('ipBlock.postal'), show(ip.postal)],
          [t('ipBlock.coordinates'), coords],
          [t('ipBlock.timezone'), show(ip.timezone)],
        ]}
      />
      <h3>{t('ipBlock.network')}</h3>
      <Rows
        rows={[
          [t('ipBlock.org'), show(ip.org)],
          [t('ipBlock.asn'), typeof ip.asn === 'number' ? `AS${ip.asn}` : show(ip.asn)],
          [t('ipBlock.hostname'), show(ip.hostname)],
          [t('ipBlock.requestTime'), requestTime],
        ]}
      />
    </>
  );
});

export const BrowserPanel = memo(function BrowserPanel({ info }: { info: BrowserInfo }) {
  const { t } = useTranslation(IP_NS);
  const yn = (b: boolean) => (b ? t('yes') : t('no'));
  const s = info.system;
  const c = info.connection;
  return (
    <Section id="ip-browser" title={t('browserPanel.heading')}>
      <Rows
        rows={[
          [t('browserPanel.browser'), joinKnown(' ', info.browser.name, info.browser.version)],
          [t('browserPanel.engine'), joinKnown(' ', info.engine.name, info.engine.version)],
          [t('browserPanel.os'), joinKnown(' ', info.os.name, info.os.version)],
          [t('browserPanel.device'), t(`browserPanel.deviceTypes.${info.device.type}`)],
          [t('browserPanel.model'), joinKnown(' ', info.device.vendor, info.device.model)],
          [t('browserPanel.userAgent'), <code key="ua">{info.userAgent}</code>],
          [
            t('browserPanel.clientHints'),
            info.clientHints ? `${info.clientHints.brands.join(', ')} · ${info.clientHints.platform}` : 'unknown',
          ],
        ]}
      />
      <h3>{t('browserPanel.system')}</h3>
      <Rows
        rows={[
          [t('browserPanel.platform'), s.platform],
          [t('browserPanel.language'), s.language],
          [t('browserPanel.languages'), s.languages.join(', ') || 'unknown'],
          [t('browserPanel.cores'), String(s.hardwareConcurrency)],
          [t('browserPanel.memory'), String(s.deviceMemory)],
          [t('browserPanel.screen'), `${s.screenResolution.width} × ${s.screenResolution.height}`],
          [t('browserPanel.viewport'), `${s.viewportSize.width} × ${s.viewportSize.height}`],
          [t('browserPanel.colorDepth'), t('browserPanel.bits', { n: s.colorDepth })],
          [t('browserPanel.timezone'), s.timezone],
          [t('browserPanel.offset'), formatOffset(s.timezoneOffset)],
          [t('browserPanel.touchPoints'), String(s.maxTouchPoints)],
          [t('browserPanel.cookies'), yn(s.cookieEnabled)],
        ]}
      />
      <h3>{t('browserPanel.connection')}</h3>
      <Rows
        rows={[
          [t('browserPanel.online'), yn(c.onLine)],
          [t('browserPanel.effectiveType'), c.effectiveType],
          [t('browserPanel.downlink'), String(c.downlink)],
          [t('browserPanel.rtt'), String(c.rtt)],
          [t('browserPanel.saveData'), typeof c.saveData === 'boolean' ? yn(c.saveData) : c.saveData],
        ]}
      />
      <h3>{t('browserPanel.graphics')}</h3>
      <Rows
        rows={[
          [t('browserPanel.webgl'), info.webgl.supported ? info.webgl.version : t('webApis.unsupported')],
          [t('browserPanel.webglRenderer'), joinKnown(' · ', info.webgl.vendor, info.webgl.renderer)],
          [t('browserPanel.canvas'), info.canvas.supported ? t('webApis.supported') : t('webApis.unsupported')],
        ]}
      />
      <h3>{t('browserPanel.location')}</h3>
      <Rows
        rows={[
          [t('browserPanel.origin'), info.location.origin],
          [t('browserPanel.path'), info.location.pathname],
          [t('browserPanel.query'), info.location.search || '—'],
          [t('browserPanel.fragment'), info.location.hash || '—'],
          [t('browserPanel.referrer'), info.location.referrer || '—'],
        ]}
      />
    </Section>
  );
});

export const PerformancePanel = memo(function PerformancePanel({ info }: { info: BrowserInfo }) {
  const { t, i18n } = useTranslation(IP_NS);
  const p = info.performance;
  const fig = (v: string) => localFigure(v, i18n.language);
  const ms = (v: number | null) => (v === null ? 'unknown' : String(v));
  return (
    <Section id="ip-performance" title={t('performance.heading')}>
      {p ? (
        <>
          <h3>{t('performance.memory')}</h3>
          {p.memory ? (
            <Rows
              rows={[
                [t('performance.used'), fig(p.memory.usedJSHeapSize)],
                [t('performance.total'), fig(p.memory.totalJSHeapSize)],
                [t('performance.limit'), fig(p.memory.jsHeapSizeLimit)],
              ]}
            />
          ) : (
            <p className="ip-hint">{t('performance.memoryUnavailable')}</p>
          )}
          <h3>{t('performance.timing')}</h3>
          <Rows
            rows={[
              [t('performance.firstByte'), ms(p.timing.firstByte)],
              [t('performance.dns'), ms(p.timing.dns)],
              [t('performance.domContentLoaded'), ms(p.timing.domContentLoaded)],
              [t('performance.load'), ms(p.timing.load)],
            ]}
          />
          <h3>{t('performance.navigation')}</h3>
          <Rows
            rows={[
              [t('performance.navigationType'), p.navigation.type],
              [t('performance.redirects'), String(p.navigation.redirectCount)],
            ]}
          />
        </>
      ) : (
        <p className="ip-hint">{t('performance.unavailable')}</p>
      )}
    </Section>
  );
});

export const WebApiPanel = memo(function WebApiPanel({ info }: { info: BrowserInfo }) {
  const { t } = useTranslation(IP_NS);
  const summary = supportSummary(info);
  return (
    <Section id="ip-webapis" title={t('webApis.heading')}>
      <p data-testid="webapi-total">{t('webApis.summary', { supported: summary.supported, total: summary.total, percent: summary.percent })}</p>
      {summary.groups.map((g) => (
        <details key={g.group} className="ip-group">
          <summary>
            {t(`webApis.groups.${g.group}`)}: {t('webApis.summary', { supported: g.supported, total: g.total, percent: g.percent })}
          </summary>
          <ul className="ip-features">
            {Object.entries(info[g.group]).map(([name, ok]) => (
              <li key={name} className={ok ? 'ip-ok' : 'ip-no'}>
                <span aria-hidden="true">{ok ? '✓' : '✗'}</span> <code>{name}</code>{' '}
                <span className="visually-hidden">{ok ? t('webApis.supported') : t('webApis.unsupported')}</span>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </Section>
  );
});

export const ConsistencyPanel = memo(function ConsistencyPanel({ rows }: { rows: ConsistencyRow[] }) {
  const { t } = useTranslation(IP_NS);
  // The rows keep the data's words (the mobile row's "true"/"false"); the page says them in the reader's language.
  const cell = (v: string) => (isUnknown(v) ? t('unknownValue') : v === 'true' ? t('yes') : v === 'false' ? t('no') : v);
  return (
    <Section id="ip-consistency" title={t('consistency.heading')}>
      <p className="ip-hint">{t('consistency.lead')}</p>
      <div className="ip-table-wrap">
        <table className="ip-table">
          <thead>
            <tr>
              <th scope="col">{t('consistency.check')}</th>
              <th scope="col">{t('consistency.claimed')}</th>
              <th scope="col">{t('consistency.actual')}</th>
              <th scope="col">{t('consistency.result')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-status={r.status}>
                <th scope="row">{t(`consistency.rows.${r.key}`)}</th>
                <td>{cell(r.ipSide)}</td>
                <td>{cell(r.browserSide)}</td>
                <td className={`ip-status ip-status--${r.status}`}>{t(`consistency.status.${r.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
});

export function WebRtcPanel({ result, pending }: { result: WebRtcResult | undefined; pending: boolean }) {
  const { t } = useTranslation(IP_NS);
  let text: string;
  if (pending || !result) text = t('webrtc.checking');
  else if (!result.supported) text = t('webrtc.unsupported');
  else if (result.addresses.length) text = t('webrtc.exposed', { list: result.addresses.join(', ') });
  else if (result.mdns) text = t('webrtc.hidden', { count: result.mdns });
  else text = t('webrtc.none');
  return (
    <Section id="ip-webrtc" title={t('webrtc.heading')}>
      <p className="ip-hint">{t('webrtc.lead')}</p>
      <p data-testid="webrtc-result">{text}</p>
    </Section>
  );
}

export function ReadinessPanel({ r, ref }: { r: Readiness | undefined; ref?: Ref<HTMLElement> }) {
  const { t, i18n } = useTranslation(IP_NS);
  // Until the checks have run (they wait for the panel to near the viewport) every row says
  // Checking…: the same rows as the answer, so its arrival moves nothing.
  const checking = t('readiness.checking');
  const mark = (ok: boolean | undefined) =>
    ok === undefined ? checking : ok ? `✓ ${t('webApis.supported')}` : `✗ ${t('webApis.unsupported')}`;
  const ready = r && r.webAssembly && r.webGL2 && r.audioOutput;
  return (
    <Section id="ip-readiness" title={t('readiness.heading')} ref={ref}>
      <Rows
        rows={[
          [t('readiness.webAssembly'), mark(r?.webAssembly)],
          [t('readiness.webGL2'), mark(r?.webGL2)],
          [t('readiness.audioOutput'), mark(r?.audioOutput)],
          [
            t('readiness.gamepads'),
            !r ? checking : r.gamepads.supported ? t('readiness.gamepadsConnected', { count: r.gamepads.connected }) : mark(false),
          ],
          [
            t('readiness.storage'),
            !r ? checking : r.storage.supported ? t('readiness.storageValue', { quota: localFigure(r.storage.quota, i18n.language), usage: localFigure(r.storage.usage, i18n.language) }) : mark(false),
          ],
        ]}
      />
      <p className="ip-hint" aria-live="polite">
        {!r ? checking : ready ? t('readiness.ready') : t('readiness.notReady')}
      </p>
    </Section>
  );
}
