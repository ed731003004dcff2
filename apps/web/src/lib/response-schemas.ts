/**
 * The schemas of the answers that calls made while a page loads are checked with (lib/schemas.ts loads this
 * module, and zod with it, alongside the first such call): the page is drawn without them.
 */
export {
  ApiTokenCreated,
  ApiTokenInfo,
  AuthState,
  CheckPasswordResponse,
  DownloadInfo,
  DownloadLinkResponse,
  EnterpriseContactResponse,
  HasActiveAccountResponse,
  IdTokenResponse,
  InboxListResponse,
  Limits,
  ModerationCase,
  ModerationQueue,
  OwnerCustomization,
  ProvidersByEmailResponse,
  ReceivedUploadView,
  ReceivePointPublic,
  ReceiveReceipt,
  ReceiveRequestView,
  ReceiveUploadCreateResponse,
  RecoveryCodesResponse,
  RegisterResponse,
  SenderVerificationResendResponse,
  SenderVerificationResponse,
  SessionCookieResponse,
  SessionInfo,
  SignOutResponse,
  Theme,
  ThemeAsset,
  ThumbnailLinksResponse,
  TotpSetupResponse,
  TotpStatus,
  TransferCreateResponse,
  TransferReportResponse,
  TransferSummary,
  UnsubscribeResponse,
  UserProfile,
} from '@ferry/core';

import { ApiTokenInfo, SessionInfo } from '@ferry/core';

export const SessionList = SessionInfo.array();
export const ApiTokenList = ApiTokenInfo.array();
