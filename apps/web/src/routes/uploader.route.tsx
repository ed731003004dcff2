import { UploaderPage } from '../features/uploader/uploader-page';
import { MobileBanner } from '../features/visitors/mobile-banner';
import { PromoSlot } from '../features/visitors/promo-gate';

/**
 * `/` (and `/#S1`, `/#S2`): the uploader; for signed-out visitors of the main domain's home, the mobile banner
 * above it and the promo panel beside it (spec §2).
 */
export default function UploaderRoute() {
  return (
    <>
      <MobileBanner />
      <UploaderPage aside={<PromoSlot />} />
    </>
  );
}
