// A bundle's multipart upload that was never completed: aborted, so R2 drops its parts (PLATFORM.md, R2). An
// upload already aborted or completed is no error here: the abort is asked for again harmlessly.
export async function abortUpload(env: Env, key: string, uploadId: string): Promise<void> {
  await env.FILES.resumeMultipartUpload(key, uploadId).abort().catch(() => undefined);
}
