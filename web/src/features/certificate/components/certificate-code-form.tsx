import { useState } from 'react';
import { useNavigate } from 'react-router';
import { normalizeCertificateCode } from '@shared/certificate-code';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';

/** A field to type a verification code: any case, spaces or dashes (shared/certificate-code.ts). */
export function CertificateCodeForm({ label }: { label: string }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  return (
    <form
      className="form cert-check__form"
      role="search"
      aria-label="Check a certificate"
      onSubmit={(event) => {
        event.preventDefault();
        const code = typed.trim();
        if (code) void navigate(paths.certificateCheck(normalizeCertificateCode(code) ?? code));
      }}
    >
      <TextField
        label={label}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        hint="For example DXSQ-AVG0-QC53"
      />
      <div className="form__actions">
        <Button type="submit" disabled={!typed.trim()}>
          Check
        </Button>
      </div>
    </form>
  );
}
