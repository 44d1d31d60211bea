import { deviceLabel } from '../lib/device-label';

/**
 * The name a new passkey gets when the person leaves the name empty: the passkey provider the
 * authenticator names by its AAGUID when it is a well-known one, else the browser and system it
 * was added from ("Chrome on Linux").
 *
 * A short table of the most used providers (from the community list
 * github.com/passkeydeveloper/passkey-authenticator-aaguids) rather than that whole list as a
 * dependency: the full list with its icons is hundreds of kilobytes in a Lambda bundle kept lean
 * (docs/lean-builds.md), and a name here is only a default the person can change.
 */
const PROVIDERS: Readonly<Record<string, string>> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  '50726f74-6f6e-5061-7373-50726f746f6e': 'Proton Pass',
  'b84e4048-15dc-4dd0-8640-f4f60813c8af': 'NordPass',
  '0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6': 'Keeper',
};

export function defaultPasskeyName(aaguid: string | undefined, userAgent: string | undefined): string {
  return (aaguid && PROVIDERS[aaguid.toLowerCase()]) || deviceLabel(userAgent);
}
