import { z } from 'zod';
import { FileId, TransferRef } from './ids.js';

/** What a file is shown as: the kinds Ferry makes thumbnails and previews of. */
export const PreviewKind = z.enum(['image', 'video', 'audio', 'pdf', 'text']);
export type PreviewKind = z.infer<typeof PreviewKind>;

/** ready: made; pending: its background job has not run yet (ask again); none: there will be none. */
export const ThumbnailStatus = z.enum(['ready', 'pending', 'none']);
export type ThumbnailStatus = z.infer<typeof ThumbnailStatus>;

/** Query of POST /api/transfer/downloads/thumbnail-links (spec §7). */
export const ThumbnailLinksQuery = z.object({
  /** The transfer's id or its custom link (any case). */
  transferId: TransferRef,
  password: z.string().max(256).optional(),
  userSecret: z.string().max(200).optional(),
  purchaseToken: z.string().max(300).optional(),
});
export type ThumbnailLinksQuery = z.infer<typeof ThumbnailLinksQuery>;

/** Body of POST /api/transfer/downloads/thumbnail-links (spec §3 "Thumbnail request"). */
export const ThumbnailLinksRequest = z.object({
  fileIds: z.array(FileId).min(1).max(500),
  format: z.literal('web'),
});
export type ThumbnailLinksRequest = z.infer<typeof ThumbnailLinksRequest>;

export const ThumbnailLink = z.object({
  fileId: FileId,
  /** The thumbnail's state. */
  status: ThumbnailStatus,
  /** A short-lived URL of the thumbnail image (status ready only). */
  url: z.string().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  /** What the file is shown as; absent when it is none of the kinds. */
  kind: PreviewKind.optional(),
  /** Whether an in-page preview can be asked for (GET /link with preview=true). */
  preview: z.boolean(),
});
export type ThumbnailLink = z.infer<typeof ThumbnailLink>;

export const ThumbnailLinksResponse = z.object({ thumbnails: z.array(ThumbnailLink) });
export type ThumbnailLinksResponse = z.infer<typeof ThumbnailLinksResponse>;

/** One rendition of an in-page preview: an image (a page of a PDF), a clip, or text. */
export const PreviewPart = z.object({
  url: z.string(),
  contentType: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type PreviewPart = z.infer<typeof PreviewPart>;

/** What /link with preview=true adds to its answer: the renditions to show, never the file itself. */
export const PreviewLinkDetails = z.object({
  kind: PreviewKind,
  /** Image: one; PDF: its first pages; video and audio: the clip; text: its first part. */
  parts: z.array(PreviewPart).min(1),
  /** A still shown before a clip plays (video, audio); null for the others. */
  poster: PreviewPart.nullable(),
  /** Pages of the PDF that were rendered. */
  pageCount: z.number().int().nullable(),
});
export type PreviewLinkDetails = z.infer<typeof PreviewLinkDetails>;

/** Limits of the renditions (pixels on the longer side, seconds, bytes), for the server and the viewer alike. */
export const PREVIEW_LIMITS = {
  thumbnailPx: 320,
  imagePx: 1600,
  clipSeconds: 10,
  clipHeight: 480,
  audioSeconds: 30,
  pdfPages: 3,
  textBytes: 64 * 1024,
} as const;
