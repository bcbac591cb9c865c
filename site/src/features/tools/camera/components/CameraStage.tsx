import { useTranslation } from 'react-i18next';
import type { Ref } from 'react';
import { cssFilter, isIdentityKernel, sharpenKernel, type Filters } from '../filters';
import type { Rotation } from '../photo';
import type { CameraStatus } from '../useCamera';
import { previewScale } from '../view';

/** The SVG filter the preview uses for sharpness (a real 3×3 convolution, as the photo gets). */
export const SHARPEN_FILTER_ID = 'camera-sharpen';

interface Props {
  status: CameraStatus;
  rotation: Rotation;
  filters: Filters;
  mirrored: boolean;
  /** width / height of the picture (16:9 until the first frame says otherwise). */
  aspect: number;
  isFullscreen: boolean;
  videoRef: Ref<HTMLVideoElement>;
}

/**
 * The live picture. Rotation, mirroring and the image settings are applied on screen only; the
 * stream itself is untouched. Turned by 90° or 270°, the picture is scaled to stay inside the
 * frame.
 */
export function CameraStage({ status, rotation, filters, mirrored, aspect, isFullscreen, videoRef }: Props) {
  const { t } = useTranslation('camera');
  const kernel = sharpenKernel(filters.sharpness);
  const sharpen = !isIdentityKernel(kernel);
  const scale = previewScale(aspect, rotation);
  const transform = `rotate(${rotation}deg) scale(${scale}) scaleX(${mirrored ? -1 : 1})`;
  const filter = `${cssFilter(filters)}${sharpen ? ` url(#${SHARPEN_FILTER_ID})` : ''}`;
  return (
    <div
      className={`camera-stage${isFullscreen ? ' camera-stage--fullscreen' : ''}`}
      style={isFullscreen ? undefined : { aspectRatio: String(aspect) }}
      data-rotation={rotation}
      data-mirrored={mirrored}
    >
      <svg className="camera-stage__defs" width="0" height="0" aria-hidden="true" focusable="false">
        <filter id={SHARPEN_FILTER_ID} colorInterpolationFilters="sRGB">
          <feConvolveMatrix order="3" kernelMatrix={kernel.join(' ')} divisor="1" edgeMode="duplicate" preserveAlpha="true" />
        </filter>
      </svg>
      <video
        ref={videoRef}
        className="camera-stage__video"
        aria-label={t('video')}
        autoPlay
        muted
        playsInline
        hidden={status !== 'on'}
        style={{ transform, filter }}
      />
      {status !== 'on' ? <p className="camera-stage__status">{t(`status.${status}`)}</p> : null}
    </div>
  );
}
