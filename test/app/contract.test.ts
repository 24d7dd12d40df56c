// The response check itself must be able to fail.
import { describe, expect, it } from 'vitest';
import { checkAgainstDocument, primeContract } from '../helpers/contract';

describe('responses are checked against /openapi.json', () => {
  it('rejects an undocumented status and a field of the wrong type', async () => {
    await primeContract();
    const url = 'https://workspace.test/v1/clients/cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
    await expect(checkAgainstDocument('GET', url, 418, 'application/json', {})).rejects.toThrow(/does not document/);
    await expect(checkAgainstDocument('GET', 'https://workspace.test/v1/clients', 200, 'application/json', { data: 'nope', has_more: false, next_cursor: null })).rejects.toThrow(/does not match/);
    await expect(checkAgainstDocument('GET', url, 404, 'application/json', { error: { code: 'teapot', message: 'x', request_id: 'r' } })).rejects.toThrow(/does not match/);
    await expect(checkAgainstDocument('GET', url, 404, 'application/json', { error: { code: 'not_found', message: 'x', request_id: 'r' } })).resolves.toBeUndefined();
  });
});
