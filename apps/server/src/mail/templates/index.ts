export { type AbuseReportInput, abuseReport } from './abuse-report.js';
export { type AccountLinkInput, emailVerification, passwordReset } from './account.js';
export {
  type ContactMessageInput,
  contactMessageAcknowledgement,
  contactMessageForSupport,
  type EnterpriseContactInput,
  enterpriseContactAcknowledgement,
  enterpriseContactForSales,
  type PasswordChangedInput,
  passwordChanged,
} from './account-notice.js';
export type { MailContext } from './common.js';
export { type DeliveryFailedInput, deliveryFailed } from './delivery-failed.js';
export { type DownloadConfirmationInput, downloadConfirmation } from './download-confirmation.js';
export { type ExpiryReminderInput, expiryReminder } from './expiry-reminder.js';
export { type FileInfectedInput, fileInfected } from './file-infected.js';
export { type FilesAddedInput, filesAdded } from './files-added.js';
export { MAIL_FILE_LIST_LIMIT, type MailFile } from './format.js';
export { MAIL_LOCALES, type MailLocale, resolveMailLocale } from './i18n.js';
export { type InvoiceMailInput, invoiceIssued, invoiceReceipt } from './invoice.js';
export type { RenderedMail } from './layout.js';
export { type PasswordGuessingInput, passwordGuessing } from './password-guessing.js';
export { type PurchaseReceiptInput, purchaseReceipt } from './purchase-receipt.js';
export { type ReceiveRequestInput, receiveRequest } from './receive-request.js';
export { type SenderVerificationCodeInput, senderVerificationCode } from './sender-verification-code.js';
export {
  type DunningStage,
  type SubscriptionDunningInput,
  subscriptionDunning,
} from './subscription-dunning.js';
export { type TeamInvitationInput, teamInvitation } from './team-invitation.js';
export { type TransferReceivedInput, transferReceived } from './transfer-received.js';
export { type TransferSummaryInput, transferSummary } from './transfer-summary.js';
export { type UploadReceiptInput, uploadReceipt } from './upload-receipt.js';
export { type UploadReceivedInput, uploadReceived } from './upload-received.js';
