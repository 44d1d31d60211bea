/**
 * Which superseded site assets to delete (infra/asset-cleanup/handler.ts runs it on each site
 * deploy). A hashed file under `assets/` is deleted once no deployed release has named it for the
 * grace period: a tab opened on an earlier release keeps loading its chunks for that long after
 * the release that replaced it went live. The age that counts is since the file was last current,
 * not since its upload: a release that stayed live for months leaves files that are old but were
 * current until this deploy.
 */

/** One object of the listing. */
export interface ListedAsset {
  key: string;
  lastModified: Date;
}

/** When each asset was last seen named by a deployed release (ISO timestamps by key). */
export type AssetHistory = Record<string, string>;

export interface CleanupInput {
  /** Every object under the assets prefix, as listed after the deployment. */
  listed: ListedAsset[];
  /** The keys the release just deployed names. */
  current: string[];
  /** The keys the release before it named (the custom resource's old properties), current until now. */
  previous: string[];
  /** What earlier runs recorded; empty on the first run or if the record was lost. */
  history: AssetHistory;
  now: Date;
  graceMs: number;
}

export interface CleanupPlan {
  /** Keys to delete. */
  expired: string[];
  /** The record to keep for the next run: every listed key that stays, with when it was last current. */
  history: AssetHistory;
  /** Why nothing is deleted although the plan ran (the deployment's files are not all there). */
  refused?: string;
}

export function planAssetCleanup(input: CleanupInput): CleanupPlan {
  const listedKeys = new Set(input.listed.map((asset) => asset.key));
  const missing = input.current.filter((key) => !listedKeys.has(key));
  // The cleanup runs after the upload: a release without files, or with files the bucket does not
  // hold, means a wrong bucket, prefix or build, and then nothing is safe to judge.
  if (input.current.length === 0 || missing.length > 0) {
    return {
      expired: [],
      history: input.history,
      refused:
        input.current.length === 0
          ? 'the release names no assets'
          : `${missing.length} asset(s) of the release are not in the bucket, e.g. ${missing[0]}`,
    };
  }
  const nowIso = input.now.toISOString();
  const currentNow = new Set([...input.current, ...input.previous]);
  const history: AssetHistory = {};
  const expired: string[] = [];
  for (const asset of input.listed) {
    if (currentNow.has(asset.key)) {
      history[asset.key] = nowIso;
      continue;
    }
    const recorded = input.history[asset.key];
    // A file no run has seen yet (uploaded before the cleanup existed, or its record lost) gets
    // the whole grace from now: nothing says when it stopped being current.
    const lastCurrent = recorded === undefined || Number.isNaN(Date.parse(recorded)) ? input.now.getTime() : Date.parse(recorded);
    // A roll back that uploads a file again makes it current again, whatever the record says.
    const since = Math.max(lastCurrent, asset.lastModified.getTime());
    if (input.now.getTime() - since > input.graceMs) expired.push(asset.key);
    else history[asset.key] = new Date(since).toISOString();
  }
  return { expired, history };
}
