import { useLocalConfig } from '@/lib/local-config';

/** In local mode no real email leaves the machine: point to the local mail viewer instead. */
export function LocalMailNote() {
  const { data } = useLocalConfig();
  if (!data) return null;
  return (
    <p className="note">
      Running locally: emails arrive in the{' '}
      <a href={data.mail_viewer_url} target="_blank" rel="noreferrer">
        local mail viewer
      </a>
      .
    </p>
  );
}
