import { z } from 'zod';
import { OPEN_GRAPH_DESCRIPTION_MAX, OPEN_GRAPH_TITLE_MAX } from '../rules/link-preview-text.js';
import { hasLayoutControlChars } from '../rules/text.js';

/**
 * One line of preview text: surrounding spaces dropped, no NUL, line break, other control character or
 * bidirectional control (right-to-left text itself is fine); empty means "none".
 */
const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !hasLayoutControlChars(v), 'must not contain line breaks or control characters');

/**
 * A transfer's own link preview (spec §3 open-graph customization; paid plans only): what chat apps and social
 * sites show for its download page instead of the defaults (its name, file count and size). Each field only when
 * chosen; an empty one is no choice. Shown only while the transfer's page may show anything about it: never for
 * a password-protected or S1 transfer (docs/api.md "Link previews").
 */
export const TransferOpenGraph = z
  .object({
    title: line(OPEN_GRAPH_TITLE_MAX).optional(),
    description: line(OPEN_GRAPH_DESCRIPTION_MAX).optional(),
  })
  .strict();
export type TransferOpenGraph = z.input<typeof TransferOpenGraph>;

/**
 * GET and PUT /api/transfer/transfers/{id}/open-graph: the transfer's choice (null: the default), whether its
 * owner's plan allows one (`allowed`) and whether the caller may change it (`editable`: the owner only).
 */
export const TransferOpenGraphView = z.object({
  transferId: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  allowed: z.boolean(),
  editable: z.boolean(),
});
export type TransferOpenGraphView = z.infer<typeof TransferOpenGraphView>;
