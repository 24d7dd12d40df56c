// The error envelope (§3) for the few refusals the MCP layer makes itself, worded as the API words
// them, so an assistant reads one shape whoever refused.
import type { ErrorCode, ErrorDetail } from '../../../errors';
import { failure, type ToolResult } from './results';

export function refusal(requestId: string, code: ErrorCode, message: string, details?: ErrorDetail[]): ToolResult {
  return failure({ error: { code, message, request_id: requestId, ...(details?.length ? { details } : {}) } });
}
