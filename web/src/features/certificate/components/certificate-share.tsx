import { useState } from 'react';
import type { CertificateView } from '@shared/program-types';
import { Button } from '@/components/ui/button';
import { linkedInAddToProfileUrl } from '../utils/linkedin-add-url';

type Copy = 'idle' | 'copied' | 'failed';

/** Ways to pass the certificate on: LinkedIn's add-to-profile form, the check link, the phone's share sheet. */
export function CertificateShare({ certificate }: { certificate: CertificateView }) {
  const [copy, setCopy] = useState<Copy>('idle');
  // The share sheet exists on phones (and some desktops); elsewhere the button would do nothing.
  const canShare = typeof navigator.share === 'function';

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(certificate.verify_url);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const share = async () => {
    try {
      await navigator.share({
        title: `${certificate.program_title} certificate`,
        text: `My certificate of completion of the ${certificate.program_title}`,
        url: certificate.verify_url,
      });
    } catch {
      // closing the sheet rejects too: nothing to tell
    }
  };

  return (
    <div className="cert-share">
      <a className="button button--secondary" href={linkedInAddToProfileUrl(certificate)} target="_blank" rel="noopener noreferrer">
        Add to LinkedIn profile
      </a>
      <Button variant="secondary" onClick={() => void copyLink()}>
        Copy link
      </Button>
      {canShare && (
        <Button variant="secondary" onClick={() => void share()}>
          Share
        </Button>
      )}
      <p className="cert-share__status" role="status">
        {copy === 'copied' ? 'Link copied.' : copy === 'failed' ? `Unable to copy. The link: ${certificate.verify_url}` : ''}
      </p>
    </div>
  );
}
