export {
  type DownloadLinkParams,
  FerryClient,
  type FerryClientOptions,
  normalizeServerUrl,
  type Parser,
  type RetryInfo,
  type SessionCookieOptions,
  type SignOutOptions,
  type SignOutResponse,
} from './client.js';
export {
  FerryApiError,
  type FerryErrorKind,
  FerryIntegrityError,
  FerryProtocolError,
  parseErrorBody,
  parseRetryAfter,
} from './errors.js';
export { type DownloadLink, formatDownloadLink, parseDownloadLink } from './links.js';
export {
  type DownloadOptions,
  type DownloadResult,
  downloadToFile,
  parseContentRange,
} from './node/download.js';
export { hashFileInto, sha256File } from './node/hash.js';
export {
  DEFAULT_CHUNK_SIZE,
  type UploadFileOptions,
  type UploadFileResult,
  uploadFileFromDisk,
} from './node/upload.js';
export { parseReceiveLink, type ReceiveLink, receiveTargetKey } from './receive-links.js';
export { retryDelaysFor } from './retry.js';
export { resolveSafeOutputPath, UnsafePathError } from './safe-path.js';
