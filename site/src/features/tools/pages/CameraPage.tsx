// /tools/camera (§4 Camera): live picture, photos,
// image settings, a report of what the camera really delivers, a resolution scan and the
// camera's own controls. Everything stays in the browser — nothing is uploaded.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';
import '../camera/camera.css';
import { CameraReport } from '../camera/components/CameraReport';
import { CameraStage } from '../camera/components/CameraStage';
import { CapabilityControls } from '../camera/components/CapabilityControls';
import { FilterSettings } from '../camera/components/FilterSettings';
import { Gallery } from '../camera/components/Gallery';
import { ScanPanel } from '../camera/components/ScanPanel';
import { DEFAULT_FILTERS, type Filters } from '../camera/filters';
import { canMeasureFps, useMeasuredFps } from '../camera/frameRate';
import { CAMERA_NS } from '../camera/i18n';
import { capturePhoto, nextRotation, type Rotation } from '../camera/photo';
import { useCamera } from '../camera/useCamera';
import { useFullscreen } from '../camera/useFullscreen';
import { usePhotos } from '../camera/usePhotos';
import { useResolutionScan } from '../camera/useResolutionScan';
import { defaultMirrored } from '../camera/view';
import { Select } from '../../../components/ui/Field';

export default function CameraPage() {
  const { t } = useTranslation(CAMERA_NS);
  const camera = useCamera();
  const scan = useResolutionScan();
  const { photos, add: addPhoto, remove: removePhoto } = usePhotos();
  const viewerRef = useRef<HTMLDivElement>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [rotation, setRotation] = useState<Rotation>(0);
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const [showSettings, setShowSettings] = useState(false);
  const [mirrorOverride, setMirrorOverride] = useState<boolean | null>(null);
  const [aspect, setAspect] = useState(16 / 9);
  const [scanCancelled, setScanCancelled] = useState(false);

  const { showError } = camera;
  const onFullscreenError = useCallback(() => showError('fullscreen'), [showError]);
  const { isFullscreen, toggle: toggleFullscreen } = useFullscreen(viewerRef, onFullscreenError);
  const fps = useMeasuredFps(video, camera.stream);

  // The stream goes into the video element; its frame size sets the frame's aspect.
  useEffect(() => {
    if (!video) return;
    video.srcObject = camera.stream;
    if (camera.stream) video.play()?.catch(() => undefined);
  }, [video, camera.stream]);
  useEffect(() => {
    if (!video) return;
    const onSize = () => {
      if (video.videoWidth && video.videoHeight) setAspect(video.videoWidth / video.videoHeight);
    };
    video.addEventListener('loadedmetadata', onSize);
    video.addEventListener('resize', onSize);
    return () => {
      video.removeEventListener('loadedmetadata', onSize);
      video.removeEventListener('resize', onSize);
    };
  }, [video]);

  const on = camera.status === 'on';
  const busy = camera.status === 'loading';
  const settings = camera.track?.getSettings();
  const mirrored = mirrorOverride ?? defaultMirrored(settings?.facingMode, camera.deviceId ? null : camera.facing);

  const switchFacing = () => {
    setMirrorOverride(null);
    camera.switchFacing();
  };

  const takePhoto = async () => {
    if (!video) return;
    try {
      addPhoto(await capturePhoto(video, rotation, filters));
    } catch {
      showError('photo');
    }
  };

  const startScan = async () => {
    const wasOn = on || busy;
    const deviceId = settings?.deviceId || camera.deviceId;
    camera.stop();
    setScanCancelled(false);
    const completed = await scan.run({ deviceId: deviceId ?? null });
    setScanCancelled(!completed);
    if (wasOn) void camera.start();
  };

  const pickerValue = camera.deviceId ?? settings?.deviceId ?? '';

  return (
    <Page title={t('title')} lead={t('lead')} className="camera-page">
      {camera.error ? (
        <div className="camera-error" role="alert">
          <span>{t(`errors.${camera.error}`)}</span>
          <button type="button" className="btn" onClick={() => void camera.start()}>
            {t('retry')}
          </button>
        </div>
      ) : null}

      {camera.devices.length > 1 ? (
        <div className="camera-slider camera-picker">
          <label htmlFor="camera-device">{t('device')}</label>
          <Select id="camera-device" value={pickerValue} onChange={(e) => camera.selectDevice(e.target.value)} disabled={scan.running}>
            {pickerValue === '' ? <option value="">—</option> : null}
            {camera.devices.map((d) => (
              <option key={d.deviceId || d.index} value={d.deviceId}>
                {d.label ?? t('fallbackLabel', { n: d.index + 1 })}
              </option>
            ))}
          </Select>
        </div>
      ) : null}

      <div ref={viewerRef} className={`camera-viewer${isFullscreen ? ' camera-viewer--fullscreen' : ''}`}>
        <CameraStage
          status={camera.status}
          rotation={rotation}
          filters={filters}
          mirrored={mirrored}
          aspect={aspect}
          isFullscreen={isFullscreen}
          videoRef={setVideo}
        />
        <div className="camera-toolbar">
          {on || busy ? (
            <button type="button" className="btn" onClick={camera.stop}>
              {t('stop')}
            </button>
          ) : (
            <button type="button" className="btn btn--primary" onClick={() => void camera.start()} disabled={scan.running}>
              {t('start')}
            </button>
          )}
          <button type="button" className="btn" onClick={switchFacing} disabled={scan.running} title={t('facingNow', { facing: t(camera.facing === 'user' ? 'report.facingUser' : 'report.facingEnvironment') })}>
            {t('switch')}
          </button>
          <button type="button" className="btn" onClick={() => setRotation(nextRotation)}>
            {t('rotate')}
          </button>
          <button type="button" className="btn" onClick={() => void toggleFullscreen()} aria-pressed={isFullscreen}>
            {isFullscreen ? t('exitFullscreen') : t('fullscreen')}
          </button>
          <button type="button" className="btn btn--primary" onClick={() => void takePhoto()} disabled={!on}>
            {t('takePhoto')}
          </button>
          <button
            type="button"
            className="btn"
            aria-expanded={showSettings}
            aria-controls="camera-settings"
            onClick={() => setShowSettings((s) => !s)}
          >
            {showSettings ? t('settings.hide') : t('settings.show')}
          </button>
          <label className="camera-check">
            <input type="checkbox" checked={mirrored} onChange={(e) => setMirrorOverride(e.target.checked)} />
            {t('mirror')}
          </label>
          <span className="camera-muted" data-testid="camera-rotation">
            {t('rotation', { deg: rotation })}
          </span>
        </div>
      </div>

      {showSettings ? (
        <FilterSettings
          filters={filters}
          onChange={setFilters}
          onResetFilters={() => setFilters(DEFAULT_FILTERS)}
          onResetRotation={() => setRotation(0)}
        />
      ) : null}

      <div className="camera-columns">
        <CameraReport track={camera.track} fps={video && !canMeasureFps(video) ? undefined : fps} scan={scan.results} />
        {camera.track && on ? <CapabilityControls track={camera.track} /> : null}
      </div>
      <ScanPanel scan={scan} cancelled={scanCancelled} onStart={() => void startScan()} />
      <Gallery photos={photos} onDelete={removePhoto} />
    </Page>
  );
}
