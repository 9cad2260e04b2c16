/**
 * A QR code of the game's page for the big screen's corner, rendered in the browser by `qrcode`
 * (already the server's dependency for two-factor enrolment; loaded on demand, so other pages do
 * not carry it). Nothing is shown until it is ready or if it fails.
 */
import { useEffect, useState } from 'react'
import classes from './BigScreen.module.css'
import { t } from '../../i18n'

export function GameQr({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(url, { margin: 1, width: 192, errorCorrectionLevel: 'M' }))
      .then((data) => live && setSrc(data))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [url])
  if (!src) return null
  return (
    <div className={classes.qr} data-testid="bigscreen-qr" data-url={url}>
      <img src={src} alt={t('比赛页面二维码')} />
    </div>
  )
}
