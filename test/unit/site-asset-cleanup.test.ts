import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { answerEvent, type CleanupProperties, cleanUpAssets, DELETE_BATCH } from '../../infra/asset-cleanup/handler';
import { planAssetCleanup } from '../../infra/asset-cleanup/plan';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2031-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);
const grace = 30 * DAY;

describe('which assets the cleanup deletes', () => {
  const listed = (entries: Array<[string, number]>) => entries.map(([key, age]) => ({ key, lastModified: daysAgo(age) }));

  it('deletes a file no release has named for longer than the grace, and keeps the release’s own however old', () => {
    const plan = planAssetCleanup({
      listed: listed([
        ['assets/live-old.js', 400],
        ['assets/gone.js', 100],
      ]),
      current: ['assets/live-old.js'],
      previous: [],
      history: { 'assets/gone.js': daysAgo(31).toISOString() },
      now,
      graceMs: grace,
    });
    expect(plan.expired).toEqual(['assets/gone.js']);
    expect(plan.history).toEqual({ 'assets/live-old.js': now.toISOString() });
  });

  it('keeps an old upload that was current until this deploy (the release before), for the whole grace', () => {
    // uploaded 200 days ago by a release that stayed live until now: an open tab still needs it
    const plan = planAssetCleanup({
      listed: listed([
        ['assets/new.js', 0],
        ['assets/replaced.js', 200],
      ]),
      current: ['assets/new.js'],
      previous: ['assets/replaced.js'],
      history: { 'assets/replaced.js': daysAgo(200).toISOString() },
      now,
      graceMs: grace,
    });
    expect(plan.expired).toEqual([]);
    expect(plan.history['assets/replaced.js']).toBe(now.toISOString());
  });

  it('keeps a file replaced less than the grace ago, with when it was last current', () => {
    const plan = planAssetCleanup({
      listed: listed([
        ['assets/new.js', 0],
        ['assets/recent.js', 90],
      ]),
      current: ['assets/new.js'],
      previous: [],
      history: { 'assets/recent.js': daysAgo(29).toISOString() },
      now,
      graceMs: grace,
    });
    expect(plan.expired).toEqual([]);
    expect(plan.history['assets/recent.js']).toBe(daysAgo(29).toISOString());
  });

  it('gives a file it has no record of (or an unreadable one) the whole grace from now', () => {
    const plan = planAssetCleanup({
      listed: listed([
        ['assets/new.js', 0],
        ['assets/unknown.js', 500],
        ['assets/garbled.js', 500],
      ]),
      current: ['assets/new.js'],
      previous: [],
      history: { 'assets/garbled.js': 'yesterday' },
      now,
      graceMs: grace,
    });
    expect(plan.expired).toEqual([]);
    expect(plan.history).toMatchObject({ 'assets/unknown.js': now.toISOString(), 'assets/garbled.js': now.toISOString() });
  });

  it('counts a re-upload (a roll back) as current at its upload, whatever the record says', () => {
    const plan = planAssetCleanup({
      listed: listed([
        ['assets/new.js', 0],
        ['assets/reuploaded.js', 2],
      ]),
      current: ['assets/new.js'],
      previous: [],
      history: { 'assets/reuploaded.js': daysAgo(90).toISOString() },
      now,
      graceMs: grace,
    });
    expect(plan.expired).toEqual([]);
    expect(plan.history['assets/reuploaded.js']).toBe(daysAgo(2).toISOString());
  });

  it('drops the record of files no longer in the bucket', () => {
    const plan = planAssetCleanup({
      listed: listed([['assets/new.js', 0]]),
      current: ['assets/new.js'],
      previous: [],
      history: { 'assets/deleted-by-hand.js': daysAgo(3).toISOString() },
      now,
      graceMs: grace,
    });
    expect(plan.history).toEqual({ 'assets/new.js': now.toISOString() });
  });

  it('deletes nothing when the release names no assets or the bucket lacks one of them', () => {
    const old = listed([['assets/old.js', 400]]);
    const history = { 'assets/old.js': daysAgo(400).toISOString() };
    const empty = planAssetCleanup({ listed: old, current: [], previous: [], history, now, graceMs: grace });
    expect(empty).toMatchObject({ expired: [], history });
    expect(empty.refused).toMatch(/no assets/);
    const missing = planAssetCleanup({ listed: old, current: ['assets/not-uploaded.js'], previous: [], history, now, graceMs: grace });
    expect(missing).toMatchObject({ expired: [], history });
    expect(missing.refused).toMatch(/assets\/not-uploaded\.js/);
  });
});

describe('the cleanup against S3', () => {
  const s3Client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const s3 = mockClient(s3Client);
  afterAll(() => s3.restore());
  beforeEach(() => s3.reset());

  const properties = (current: string[]): CleanupProperties => ({
    BucketName: 'site-bucket',
    Prefix: 'assets/',
    HistoryKey: 'site-deploy/asset-history.json',
    GraceDays: '30',
    CurrentAssets: current,
  });
  // the one method of a response body stream the cleanup reads
  const body = (text: string) => ({ transformToString: () => Promise.resolve(text) });
  /** The record the cleanup wrote (its PutObject body, a JSON string). */
  const writtenRecord = () => JSON.parse(s3.commandCalls(PutObjectCommand)[0].args[0].input.Body as string) as Record<string, string>;
  const staleKeys = (count: number) => Array.from({ length: count }, (_, i) => `assets/old-${String(i).padStart(5, '0')}.js`);

  /** A bucket of `keys` (listed 1000 a page, as S3 does) whose record says each stale key was last current 60 days ago. */
  function bucketWith(current: string[], stale: string[]) {
    const all = [...current, ...stale].map((Key) => ({ Key, LastModified: daysAgo(300) }));
    const pages: Array<typeof all> = [];
    for (let i = 0; i < all.length; i += 1000) pages.push(all.slice(i, i + 1000));
    s3.on(ListObjectsV2Command, { Prefix: 'assets/' }).callsFake((input: { ContinuationToken?: string }) => {
      const index = input.ContinuationToken ? Number(input.ContinuationToken) : 0;
      const more = index + 1 < pages.length;
      return { Contents: pages[index], IsTruncated: more, NextContinuationToken: more ? String(index + 1) : undefined };
    });
    s3.on(ListObjectsV2Command, { Prefix: 'site-deploy/asset-history.json' }).resolves({
      Contents: [{ Key: 'site-deploy/asset-history.json' }],
    });
    const record = Object.fromEntries(stale.map((key) => [key, daysAgo(60).toISOString()]));
    s3.on(GetObjectCommand).resolves({ Body: body(JSON.stringify(record)) } as never);
    s3.on(PutObjectCommand).resolves({});
  }

  it('reads every page of the listing and deletes in batches of at most 1000 keys', async () => {
    const stale = staleKeys(2500);
    bucketWith(['assets/index-New.js'], stale);
    s3.on(DeleteObjectsCommand).resolves({});

    const result = await cleanUpAssets(s3Client, properties(['assets/index-New.js']), [], now);

    expect(s3.commandCalls(ListObjectsV2Command, { Prefix: 'assets/' })).toHaveLength(3);
    const batches = s3.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input.Delete?.Objects?.map((o) => o.Key) ?? []);
    expect(batches.map((batch) => batch.length)).toEqual([DELETE_BATCH, DELETE_BATCH, 500]);
    expect(batches.flat().sort()).toEqual(stale);
    expect(s3.commandCalls(DeleteObjectsCommand)[0].args[0].input).toMatchObject({ Bucket: 'site-bucket', Delete: { Quiet: true } });
    expect(result).toEqual({ deleted: 2500, kept: 1, failed: 0 });
    const written = s3.commandCalls(PutObjectCommand)[0].args[0].input;
    expect(written).toMatchObject({ Bucket: 'site-bucket', Key: 'site-deploy/asset-history.json' });
    expect(writtenRecord()).toEqual({ 'assets/index-New.js': now.toISOString() });
  });

  it('keeps the record of a file S3 failed to delete, so the next run tries again without a new grace', async () => {
    bucketWith(['assets/index-New.js'], ['assets/a.js', 'assets/b.js']);
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'assets/b.js', Code: 'InternalError' }] });

    const result = await cleanUpAssets(s3Client, properties(['assets/index-New.js']), [], now);

    expect(result).toEqual({ deleted: 1, kept: 2, failed: 1 });
    expect(writtenRecord()).toEqual({ 'assets/index-New.js': now.toISOString(), 'assets/b.js': daysAgo(60).toISOString() });
  });

  it('starts a record on the first run without reading one, and deletes nothing yet', async () => {
    s3.on(ListObjectsV2Command, { Prefix: 'assets/' }).resolves({
      Contents: [
        { Key: 'assets/index-New.js', LastModified: now },
        { Key: 'assets/ancient.js', LastModified: daysAgo(900) },
      ],
    });
    s3.on(ListObjectsV2Command, { Prefix: 'site-deploy/asset-history.json' }).resolves({});
    s3.on(PutObjectCommand).resolves({});

    const result = await cleanUpAssets(s3Client, properties(['assets/index-New.js']), [], now);

    expect(result).toEqual({ deleted: 0, kept: 2, failed: 0 });
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
  });

  it('deletes and records nothing when the release’s files are not in the bucket', async () => {
    bucketWith(['assets/index-Old.js'], ['assets/a.js']);
    const result = await cleanUpAssets(s3Client, properties(['assets/index-New.js']), [], now);
    expect(result.refused).toMatch(/index-New/);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});

describe('the custom resource handler', () => {
  const s3Client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const s3 = mockClient(s3Client);
  afterAll(() => s3.restore());
  beforeEach(() => s3.reset());
  const ResourceProperties: CleanupProperties = {
    BucketName: 'site-bucket',
    Prefix: 'assets/',
    HistoryKey: 'site-deploy/asset-history.json',
    GraceDays: '30',
    CurrentAssets: ['assets/index-New.js'],
  };

  it('answers success with nothing done on Delete: removing the resource deletes no file of the site', async () => {
    const answer = await answerEvent(
      { RequestType: 'Delete', PhysicalResourceId: 'site-asset-cleanup', ResourceProperties },
      () => s3Client,
      now,
    );
    expect(answer).toEqual({ PhysicalResourceId: 'site-asset-cleanup', Data: {} });
    expect(s3.calls()).toHaveLength(0);
  });

  it('answers success when S3 fails, logging the failure: a failed cleanup must not fail the deploy or its roll back', async () => {
    s3.on(ListObjectsV2Command).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }));
    const logged: string[] = [];
    const original = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      const answer = await answerEvent(
        { RequestType: 'Update', ResourceProperties, OldResourceProperties: ResourceProperties },
        () => s3Client,
        now,
      );
      expect(answer).toEqual({ PhysicalResourceId: 'site-asset-cleanup', Data: { Deleted: '0', Failed: 'all' } });
    } finally {
      console.error = original;
    }
    expect(logged.map((line) => JSON.parse(line) as unknown)).toEqual([
      { message: 'asset cleanup failed', error: 'AccessDenied: Access Denied' },
    ]);
  });

  it('treats the old properties’ assets (the release just replaced) as current until now', async () => {
    s3.on(ListObjectsV2Command, { Prefix: 'assets/' }).resolves({
      Contents: [
        { Key: 'assets/index-New.js', LastModified: now },
        { Key: 'assets/index-Old.js', LastModified: daysAgo(300) },
      ],
    });
    // a record that missed the last run (its write failed): it says the old release's file went 60 days ago
    s3.on(ListObjectsV2Command, { Prefix: 'site-deploy/asset-history.json' }).resolves({
      Contents: [{ Key: 'site-deploy/asset-history.json' }],
    });
    s3.on(GetObjectCommand).resolves({
      Body: { transformToString: () => Promise.resolve(JSON.stringify({ 'assets/index-Old.js': daysAgo(60).toISOString() })) },
    } as never);
    s3.on(PutObjectCommand).resolves({});
    const answer = await answerEvent(
      {
        RequestType: 'Update',
        ResourceProperties,
        OldResourceProperties: { ...ResourceProperties, CurrentAssets: ['assets/index-Old.js'] },
      },
      () => s3Client,
      now,
    );
    expect(answer.Data).toEqual({ Deleted: '0', Failed: '0' });
    const written = JSON.parse(s3.commandCalls(PutObjectCommand)[0].args[0].input.Body as string) as Record<string, string>;
    expect(written['assets/index-Old.js']).toBe(now.toISOString());
  });
});
