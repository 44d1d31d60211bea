/** The S3 part of functions/lib/export-objects.ts, imported on the first large export. */
export { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
